import type { AppConfig } from '../config.js'
import { csvHeader, csvRow, CSV_BOM, type CsvColumn } from '../csv.js'
import {
  InvalidInputError,
  NotAvailableError,
  NotFoundError,
  TryAgainLaterError,
  UnauthorizedError,
} from '../errors.js'
import type { Logger } from '../log.js'
import { PURPOSES } from '../signing/purposes.js'
import { checkTicket, issueTicket, type SignedTicket } from '../signing/tickets.js'
import { newExportId } from '../storage/blobLayout.js'
import { isUsableRecordId } from '../storage/recordIds.js'
import type {
  ExportFilters,
  ExportJob,
  ExportJobStore,
  ExportList,
} from '../storage/exportJobStore.js'
import type { ProductRecordRepository, Repositories } from '../storage/repositories.js'
import { RESERVATION_STATUSES, SUBSCRIPTION_STATUSES } from '../storage/records.js'
import type { AdminRecord } from './adminResources.js'
import { invalidStatusMessage } from './adminSchemas.js'
import {
  reservationCsvColumns,
  subscriptionCsvColumns,
  TIME_FORMAT,
  type CsvRecord,
} from './recordCsv.js'
import { CsvPartBytes } from './csvPartBytes.js'
import { listedSource, viewedSource, type ExportSource } from './exportSources.js'

/**
 * CSV exports of lists too large for the browser: POST /api/admin/exports stores a job
 * and starts the background function with a signed one-time ticket; the run writes the CSV (BOM,
 * Japanese headers, the dashboard's columns) in parts of ROWS_PER_PART rows as it reads the list
 * (exportSources.ts), updating the job's progress; the download streams the parts in order.
 */

/** Rows per stored part: about 1.3 MB of CSV, far below any blob or answer limit. */
export const ROWS_PER_PART = 5_000
/** Reads of the time view one run tries before it reads the list whole (a write replaced it each time). */
const VIEW_ATTEMPTS = 3
/** How long a ticket may take from the starter to the background function. */
export const EXPORT_TICKET_TTL_MS = 5 * 60 * 1000
/** Largest file one download answer streams (Netlify streams 20 MB); larger ones go by part. */
export const MAX_DOWNLOAD_BYTES = 15_000_000
export const EXPORT_NOT_FOUND = 'Export not found'
export const EXPORT_NOT_READY = 'Export is not ready yet; ask /api/admin/exports/status'

interface ListShape {
  title: string
  field: 'reservations' | 'subscriptions'
  archived: boolean
  statuses: readonly string[]
  /** The columns, with the 種類 column or without (recordCsv.ts `csvHasVariants`). */
  columns: (withVariants: boolean) => CsvColumn<CsvRecord>[]
  repository(repositories: Repositories): ProductRecordRepository<AdminRecord & CsvRecord>
}

const LISTS: Record<ExportList, ListShape> = {
  reservations: {
    title: '予約',
    field: 'reservations',
    archived: false,
    statuses: RESERVATION_STATUSES,
    columns: reservationCsvColumns,
    repository: (repositories) => repositories.reservations,
  },
  notify: {
    title: '再入荷通知の登録',
    field: 'subscriptions',
    archived: false,
    statuses: SUBSCRIPTION_STATUSES,
    columns: subscriptionCsvColumns,
    repository: (repositories) => repositories.subscriptions,
  },
  'reservations-archive': {
    title: '予約-アーカイブ',
    field: 'reservations',
    archived: true,
    statuses: [],
    columns: reservationCsvColumns,
    repository: (repositories) => repositories.reservations,
  },
  'notify-archive': {
    title: '再入荷通知の登録-アーカイブ',
    field: 'subscriptions',
    archived: true,
    statuses: [],
    columns: subscriptionCsvColumns,
    repository: (repositories) => repositories.subscriptions,
  },
}

/** `予約-20261124-1030.csv`: what, and when (Japan time), like the dashboard's own files. */
export function exportFileName(title: string, now: number): string {
  const part = Object.fromEntries(TIME_FORMAT.formatToParts(now).map((p) => [p.type, p.value]))
  return `${title}-${part.year}${part.month}${part.day}-${part.hour}${part.minute}.csv`
}

/**
 * The key export tickets are signed with: derived from the admin credentials of this deploy
 * (the export endpoints need one anyway); null when none is set.
 */
function ticketSecret(
  config: Pick<AppConfig, 'adminApiToken' | 'preorderApiToken' | 'staffTokens'>,
) {
  const parts = [
    config.adminApiToken,
    config.preorderApiToken,
    ...config.staffTokens.map((staff) => staff.token),
  ].filter(Boolean)
  return parts.length === 0 ? null : JSON.stringify(parts)
}

type TicketConfig = Pick<AppConfig, 'adminApiToken' | 'preorderApiToken' | 'staffTokens'>

/** A ticket for one run of the export `exportId`, valid from `now` for EXPORT_TICKET_TTL_MS. */
export function issueExportTicket(exportId: string, config: TicketConfig, now: number): string {
  return issueTicket(
    PURPOSES.exportTicket,
    exportId,
    ticketSecret(config) ?? '',
    now,
    EXPORT_TICKET_TTL_MS,
  )
}

function refuse(log: Logger, reason: string): never {
  log.warn('export.ticket_rejected', { reason })
  throw new UnauthorizedError('Unauthorized')
}

/** The bearer ticket of a request to the export function, well signed and live, else 401. */
export function requireExportTicket(
  bearer: string | null,
  config: TicketConfig,
  log: Logger,
  now: number,
): SignedTicket {
  const secret = ticketSecret(config)
  if (!secret) return refuse(log, 'no admin token is set')
  const check = checkTicket(PURPOSES.exportTicket, bearer, secret, now)
  if (!check.ok) return refuse(log, check.reason)
  return check
}

export interface ExportServices {
  jobs: ExportJobStore
  repositories: Repositories
  log: Logger
  /** The request's clock, ms since the epoch. */
  now: () => number
  /** Rows per stored part of the CSV. Default: ROWS_PER_PART. */
  rowsPerPart?: number
}

/**
 * Creates the export of `list` with `filters` and starts its background run; the new job. An
 * unknown status of an active list answers 400 as the list would (D4).
 */
export async function createExport(
  request: { list: ExportList } & ExportFilters,
  services: ExportServices & {
    actor: string | null
    start: (exportId: string) => Promise<void>
  },
): Promise<ExportJob> {
  const { list, ...filters } = request
  const shape = LISTS[list]
  if (!shape.archived && filters.status !== undefined && !shape.statuses.includes(filters.status)) {
    throw new InvalidInputError(invalidStatusMessage(filters.status))
  }
  const now = services.now()
  const at = new Date(now).toISOString()
  const job: ExportJob = {
    id: newExportId(),
    list,
    filters,
    state: 'queued',
    createdAt: at,
    updatedAt: at,
    requestedBy: services.actor,
    fileName: exportFileName(shape.title, now),
    totalRows: null,
    writtenRows: 0,
    parts: 0,
    bytes: 0,
  }
  await services.jobs.create(job)
  try {
    await services.start(job.id)
  } catch (error) {
    services.log.error('export.start_failed', error, { exportId: job.id })
    await services.jobs.update(job.id, (stored) => ({
      ...stored,
      state: 'failed',
      error: '書き出しを開始できませんでした。もう一度お試しください。',
    }))
    throw new TryAgainLaterError('The export could not be started; try again')
  }
  services.log.info('export.created', { exportId: job.id, list })
  return job
}

/**
 * One run of the background function: admits its ticket once (it must name this export, and not
 * have been spent), then writes the CSV. A finished export is left as it is.
 */
export async function runTicketedExport(
  ticket: SignedTicket,
  exportId: string,
  services: ExportServices,
): Promise<ExportJob> {
  const now = services.now()
  if (ticket.subject !== exportId) return refuse(services.log, 'foreign')
  if (!(await services.jobs.spendTicket(ticket.nonce, ticket.expiresAt, now))) {
    return refuse(services.log, 'replayed')
  }
  return runExport(exportId, services)
}

/**
 * Writes the export's CSV in parts as it reads the list (a list of every product is never held
 * whole) and marks it done (or failed, with a reason for staff).
 */
export async function runExport(exportId: string, services: ExportServices): Promise<ExportJob> {
  const { jobs, log } = services
  const clock = services.now
  const job = await exportStatus(exportId, jobs)
  if (job.state === 'done') return job
  try {
    const shape = LISTS[job.list]
    const repository = shape.repository(services.repositories)
    const query = { ...job.filters, field: shape.field, archived: shape.archived }
    // why: a segment gone midway because a write replaced the view's catalog meanwhile is
    // read again from the new catalog; a view found damaged (rebuilt in the background) is
    // not complete on the next try, and the list is then read whole. Each try writes again
    // from the first part.
    let written: Awaited<ReturnType<typeof writeParts>> = null
    for (let attempt = 1; attempt <= VIEW_ATTEMPTS && !written; attempt++) {
      const viewed = await viewedSource(repository, query)
      if (!viewed) break
      written = await writeParts(exportId, viewed, shape, services)
    }
    written ??= await writeParts(exportId, await listedSource(repository, query), shape, services)
    if (!written) throw new Error('the listed records could not be visited')
    const done = await jobs.update(exportId, (stored) => ({
      ...stored,
      // why: a record written between the count and the writing changes the count
      totalRows: stored.writtenRows,
      state: 'done',
      updatedAt: new Date(clock()).toISOString(),
    }))
    log.info('export.done', { exportId, rows: written.rows, parts: written.parts })
    return done ?? written.progress ?? job
  } catch (error) {
    log.error('export.failed', error, { exportId })
    const failed = await jobs.update(exportId, (stored) => ({
      ...stored,
      state: 'failed',
      error: '書き出し中にエラーが発生しました。もう一度お試しください。',
      updatedAt: new Date(clock()).toISOString(),
    }))
    return failed ?? job
  }
}

/**
 * Writes the rows of `source` from the first part on, a part each time ROWS_PER_PART rows are
 * read (at least one part: the header); null when the source could not be read to its end.
 */
async function writeParts(
  exportId: string,
  source: ExportSource,
  shape: ListShape,
  services: ExportServices,
): Promise<{ rows: number; parts: number; progress: ExportJob | null } | null> {
  const { jobs } = services
  const clock = services.now
  const rowsPerPart = services.rowsPerPart ?? ROWS_PER_PART
  const columns = shape.columns(source.withVariants)
  let progress = await jobs.update(exportId, (stored) => ({
    ...stored,
    state: 'running',
    totalRows: source.rows,
    writtenRows: 0,
    parts: 0,
    bytes: 0,
    updatedAt: new Date(clock()).toISOString(),
  }))
  let parts = 0
  let rows = 0
  // why: a record becomes its row's bytes as soon as it is read, so nothing read waits in
  // the heap for its part (the heap then holds little more than the segments being merged)
  const part = new CsvPartBytes()
  part.add(csvHeader(columns))
  let partRows = 0
  const flush = async () => {
    // why: a blob read as text loses a leading byte order mark, so the download adds it
    const bytes = part.byteLength + (parts === 0 ? Buffer.byteLength(CSV_BOM) : 0)
    const count = partRows
    partRows = 0
    parts += 1
    rows += count
    const number = parts
    await jobs.writePart(exportId, number, part.take())
    progress = await jobs.update(exportId, (stored) => ({
      ...stored,
      writtenRows: stored.writtenRows + count,
      parts: number,
      bytes: stored.bytes + bytes,
      updatedAt: new Date(clock()).toISOString(),
    }))
  }
  const whole = await source.visit(async (record) => {
    part.add(csvRow(record, columns))
    partRows += 1
    if (partRows >= rowsPerPart) await flush()
  })
  if (!whole) return null
  if (partRows > 0 || parts === 0) await flush()
  return { rows, parts, progress }
}

/** The job, or 404 `Export not found`. */
export async function exportStatus(exportId: string, jobs: ExportJobStore): Promise<ExportJob> {
  // why: the id becomes part of a key; one that cannot name an export names none
  const job = isUsableRecordId(exportId) ? await jobs.get(exportId) : null
  if (!job) throw new NotFoundError(EXPORT_NOT_FOUND)
  return job
}

/**
 * What a download streams: the parts, in order (all of them, or the one asked for). 404 for an
 * unknown export; 409 while it is not done; 400 when the whole file is too large for one answer.
 */
export async function exportDownload(
  exportId: string,
  part: number | undefined,
  jobs: ExportJobStore,
): Promise<{ job: ExportJob; parts: number[] }> {
  const job = await exportStatus(exportId, jobs)
  if (job.state !== 'done') throw new NotAvailableError(EXPORT_NOT_READY)
  if (part !== undefined) {
    if (part > job.parts) throw new InvalidInputError(`part must be between 1 and ${job.parts}`)
    return { job, parts: [part] }
  }
  if (job.bytes > MAX_DOWNLOAD_BYTES) {
    throw new InvalidInputError(
      `this file is ${job.bytes} bytes, too large for one answer; download it by part (part=1 to ${job.parts})`,
    )
  }
  return { job, parts: Array.from({ length: job.parts }, (_, index) => index + 1) }
}
