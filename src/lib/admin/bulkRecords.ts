import { mapWithConcurrency } from '../concurrency.js'
import type { Logger } from '../log.js'
import type { ProductRecordRepository } from '../storage/repositories.js'
import type { ProductRecordRef } from '../storage/records.js'
import type { AdminRecord, AdminResource } from './adminResources.js'
import type { AuditRecorder } from '../audit/auditTrail.js'

/** The bulk operations of §4.6, §4.7 and D3. */
export type BulkAction = 'archive' | 'unarchive' | 'delete'

const PAST_TENSE: Record<BulkAction, string> = {
  archive: 'archived',
  unarchive: 'unarchived',
  delete: 'deleted',
}

/** Records changed at once by one bulk request; each item is its own blob write. */
export const BULK_CONCURRENCY = 10

export interface BulkItemError {
  id: string
  error: string
}

export interface BulkResult {
  /** Ids the action was applied to, in request order (duplicates once). */
  doneIds: string[]
  /** Items that failed, in request order. */
  errors: BulkItemError[]
}

export interface BulkOptions {
  log: Logger
  /** The request's clock, ms since the epoch. */
  now: () => number
  /** Items in flight at once. Default: BULK_CONCURRENCY. */
  concurrency?: number
  /** Called after a record was deleted (a reservation frees its units). Default: nothing. */
  onRemoved?: (ref: ProductRecordRef) => Promise<void>
  /** Where each item done is recorded. Default: nowhere. */
  audit?: AuditRecorder
}

type Outcome = 'done' | 'not-found'

/**
 * Applies `action` to every named record, each independently: a missing record or a failing
 * write is reported for that item and the others still go ahead. An item named twice runs once.
 */
export async function runBulkAction<T extends AdminRecord>(
  resource: AdminResource<T>,
  repository: ProductRecordRepository<T>,
  action: BulkAction,
  refs: readonly ProductRecordRef[],
  options: BulkOptions,
): Promise<BulkResult> {
  const now = new Date(options.now()).toISOString()
  const unique = [
    ...new Map(refs.map((ref) => [`${ref.productSlug}\u0000${ref.id}`, ref])).values(),
  ]
  const results = await mapWithConcurrency(
    unique,
    options.concurrency ?? BULK_CONCURRENCY,
    async (ref): Promise<BulkItemError | null> => {
      try {
        const outcome = await applyToOne(repository, action, ref, now)
        if (outcome === 'done' && action === 'delete') await afterRemoved(ref, options)
        return outcome === 'done' ? null : { id: ref.id, error: resource.notFoundMessage }
      } catch (error) {
        options.log.error(`admin.${resource.noun}.${action}.failed`, error, {
          id: ref.id,
          productSlug: ref.productSlug,
        })
        return { id: ref.id, error: `Failed to ${action} ${resource.noun}` }
      }
    },
  )
  // why: the next list then reads each product's index instead of every record just changed
  for (const productSlug of new Set(unique.map((ref) => ref.productSlug))) {
    await repository.fold(productSlug).catch((error: unknown) =>
      options.log.warn('storage.index_fold_failed', {
        productSlug,
        error: error instanceof Error ? error.message : String(error),
      }),
    )
  }
  const errors = results.filter((result): result is BulkItemError => result !== null)
  const doneIds = unique.filter((_, index) => results[index] === null).map((ref) => ref.id)
  options.log.info(`admin.${resource.noun}.${action}`, {
    requested: refs.length,
    [`${PAST_TENSE[action]}Count`]: doneIds.length,
    errorCount: errors.length,
  })
  await options.audit?.record(
    unique
      .filter((_, index) => results[index] === null)
      .map(({ id, productSlug }) => ({
        action,
        record: { type: resource.noun, id, productSlug },
        from: null,
        to: null,
      })),
  )
  return { doneIds, errors }
}

/** A failure after the delete is logged, not reported: the record is gone either way. */
async function afterRemoved(ref: ProductRecordRef, options: BulkOptions): Promise<void> {
  try {
    await options.onRemoved?.(ref)
  } catch (error) {
    options.log.error('admin.delete.follow_up_failed', error, {
      id: ref.id,
      productSlug: ref.productSlug,
    })
  }
}

async function applyToOne<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  action: BulkAction,
  ref: ProductRecordRef,
  now: string,
): Promise<Outcome> {
  if (action === 'delete') return (await repository.remove(ref)) ? 'done' : 'not-found'
  const change = action === 'archive' ? (record: T) => archived(record, now) : unarchived<T>
  return (await repository.update(ref, change)) ? 'done' : 'not-found'
}

/** D3: archived with the time of the FIRST archiving; the status is kept. */
function archived<T extends AdminRecord>(record: T, now: string): T {
  if (record.isArchived === true && record.archivedAt) return record
  return { ...record, isArchived: true, archivedAt: now }
}

/** §3.3, §4.7: active again, archivedAt removed, status kept. Unarchiving an active record is a no-op success. */
function unarchived<T extends AdminRecord>(record: T): T {
  const { archivedAt, ...rest } = record
  if (record.isArchived === false && archivedAt === undefined) return record
  return { ...rest, isArchived: false } as T
}

/** The fields of a bulk endpoint's answer: `<past>Count, <past>Ids, errors?` (§4.6, §4.7, D3). */
export function bulkResponseBody(action: BulkAction, result: BulkResult): Record<string, unknown> {
  const past = PAST_TENSE[action]
  return {
    [`${past}Count`]: result.doneIds.length,
    [`${past}Ids`]: result.doneIds,
    ...(result.errors.length > 0 ? { errors: result.errors } : {}),
  }
}
