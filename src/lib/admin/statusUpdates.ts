import { NotFoundError } from '../errors.js'
import type { ProductRecordRepository } from '../storage/repositories.js'
import type { AdminRecord, AdminResource } from './adminResources.js'
import type { StatusUpdateRequest } from './adminSchemas.js'
import type { AuditChange, AuditRecorder } from '../audit/auditTrail.js'

export interface StatusUpdateOptions {
  /** The request's clock, ms since the epoch. */
  now: () => number
  /** Where the change is recorded (status and notes, each when it changed). Default: nowhere. */
  audit?: AuditRecorder
}

/**
 * Applies the resource's status rules to the record as stored, with compare-and-swap: a
 * transition is checked against the state it actually replaces, so two concurrent updates are
 * serialisable (the later one is checked against the earlier one's result). Archived records may
 * be updated and stay archived. `id`, `productSlug` and `createdAt` never change (D4).
 */
export async function updateRecordStatus<T extends AdminRecord>(
  resource: AdminResource<T>,
  repository: ProductRecordRepository<T>,
  update: StatusUpdateRequest,
  options: StatusUpdateOptions,
): Promise<T> {
  const ref = { id: update.id, productSlug: update.productSlug }
  const now = new Date(options.now()).toISOString()
  // why: the state the change replaced, as the compare-and-swap saw it (its last attempt)
  let before: T | null = null
  const updated = await repository.update(ref, (record) => {
    before = record
    return {
      ...resource.applyStatus(record, update, now),
      id: record.id,
      productSlug: record.productSlug,
      createdAt: record.createdAt,
    }
  })
  if (!updated) throw new NotFoundError(resource.notFoundMessage)
  if (before) await options.audit?.record(statusChanges(resource, before, updated))
  return updated
}

/**
 * The audit entries of one update: the status when it changed, the notes (never their text) when
 * they or the choice to share them with the customer did.
 */
function statusChanges<T extends AdminRecord>(
  resource: AdminResource<T>,
  before: T,
  after: T,
): AuditChange[] {
  const record = { type: resource.noun, id: after.id, productSlug: after.productSlug }
  const changes: AuditChange[] = []
  if (before.status !== after.status) {
    changes.push({ action: 'status', record, from: before.status, to: after.status })
  }
  const notes = (value: T) => ('notes' in value ? String(value.notes ?? '') : '')
  const sharing = (value: T) => ('shareNote' in value && value.shareNote ? 'shared' : 'shop-only')
  const shareChanged = sharing(before) !== sharing(after)
  if (notes(before) !== notes(after) || shareChanged) {
    // why: from and to name whether the notes go to the customer, when that changed; never the text
    changes.push({
      action: 'notes',
      record,
      from: shareChanged ? sharing(before) : null,
      to: shareChanged ? sharing(after) : null,
    })
  }
  return changes
}
