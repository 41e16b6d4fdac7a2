import type { ExportFilters } from '../storage/exportJobStore.js'
import { foldForSearch } from '../storage/listing/recordSearch.js'
import type { ProductRecordRepository } from '../storage/repositories.js'
import type { AdminRecord } from './adminResources.js'
import { csvHasVariants, type CsvRecord } from './recordCsv.js'
import { listActiveRecords, listArchivedOrder, recordMatcher } from './recordLists.js'

/**
 * Where a CSV export reads its rows, in the list's order: the time view of every product,
 * visited a segment at a time, so a run never holds the whole list; or, for one product (or
 * while the view is not complete), the list read as the dashboard reads it.
 */

export type ExportRecord = AdminRecord & CsvRecord

/** What an export reads: the list's records (`field`), active or archived, and its filters. */
export interface ExportQuery extends ExportFilters {
  field: 'reservations' | 'subscriptions'
  archived: boolean
}

export interface ExportSource {
  /** Rows the file will hold. */
  rows: number
  /** Whether the file has the 種類 column (recordCsv.ts `csvHasVariants`). */
  withVariants: boolean
  /**
   * Visits every row in order; false when the list could not be read to its end (the view was
   * found damaged midway): the rows visited so far are then not the whole file.
   */
  visit(each: (record: ExportRecord) => Promise<void>): Promise<boolean>
}

const isArchived = (record: ExportRecord) => record.isArchived === true
const isActive = (record: ExportRecord) => record.isArchived !== true

/** How many rows a file will hold, and whether it has the 種類 column. */
type Survey = Pick<ExportSource, 'rows' | 'withVariants'>

/**
 * The rows and variants of a list of every product filtered by status alone, from the
 * counters (no record read); null while they are not exact.
 */
async function countedSurvey(
  repository: ProductRecordRepository<ExportRecord>,
  query: ExportQuery,
): Promise<Survey | null> {
  const groups = await repository.groupCounts({ completing: false })
  if (groups === null) return null
  const list = query.archived ? 'archived' : 'active'
  let rows = 0
  let withVariants = false
  for (const { values, count } of groups) {
    if (values.archived !== list) continue
    if (query.status !== undefined && values.status !== query.status) continue
    rows += count
    withVariants ||= count > 0 && values.variant !== ''
  }
  return { rows, withVariants }
}

/**
 * The rows and variants of a search of a list of every product without the 種類 column: the
 * counters say the list has no variant at all, and the list's search rows count the matches
 * (no segment read); null when either cannot say.
 */
async function searchedSurvey(
  repository: ProductRecordRepository<ExportRecord>,
  query: ExportQuery,
  needle: string,
): Promise<Survey | null> {
  const listed = await countedSurvey(repository, { ...query, q: undefined })
  if (listed === null || listed.withVariants) return null
  const list = query.archived ? ('archived' as const) : ('active' as const)
  // why: a page of no record is the count alone: the search rows, no segment
  const found = await repository.page({
    list,
    status: query.status,
    needle,
    start: { offset: 0 },
    limit: 0,
  })
  return found === null ? null : { rows: found.total, withVariants: false }
}

/**
 * The rows of a list of every product read from the time view. How many rows match comes from
 * the counters (a status), from the counters and the search rows (a search in a list without
 * variants), or else from a first visit (a search among variants, a variant) that counts them
 * and finds a variant before the one that writes them; each visit holds a segment per status
 * at a time. Null for one product's list, and while the view is not complete or is damaged.
 */
export async function viewedSource(
  repository: ProductRecordRepository<ExportRecord>,
  query: ExportQuery,
): Promise<ExportSource | null> {
  if (query.productSlug !== undefined) return null
  const matches = recordMatcher(query, query.archived ? isArchived : isActive)
  const selection = {
    list: query.archived ? ('archived' as const) : ('active' as const),
    status: query.status,
    needle: query.q ? foldForSearch(query.q) : undefined,
  }
  const visit: ExportSource['visit'] = (each) =>
    repository.visitList(selection, async (record) => {
      if (matches(record)) await each(record)
    })
  const counted =
    query.variant !== undefined
      ? null
      : selection.needle
        ? await searchedSurvey(repository, query, selection.needle)
        : await countedSurvey(repository, query)
  if (counted) return { ...counted, visit }
  let rows = 0
  let withVariants = false
  const whole = await visit(async (record) => {
    rows += 1
    withVariants ||= csvHasVariants([record])
  })
  return whole ? { rows, withVariants, visit } : null
}

/**
 * The rows of a list read whole: one product's records (its one base), or a scan of every
 * product that keeps only the matching records (the view is not complete).
 */
export async function listedSource(
  repository: ProductRecordRepository<ExportRecord>,
  query: ExportQuery,
): Promise<ExportSource> {
  const { field, archived, ...filters } = query
  const listed = { ...filters, list: field }
  // why: a background run has no next request to keep bases for; a scan holds only the rows
  const { records } = archived
    ? await listArchivedOrder(repository, listed, 'scanned')
    : await listActiveRecords(repository, listed, 'scanned')
  return {
    rows: records.length,
    withVariants: csvHasVariants(records, query.productSlug),
    async visit(each) {
      for (const record of records) await each(record)
      return true
    },
  }
}
