import { NotFoundError } from '../errors.js'
import type { ProductRecordRepository } from '../storage/repositories.js'
import type { AdminRecord, AdminResource } from './adminResources.js'
import type { StatusUpdateRequest } from './adminSchemas.js'

export interface StatusUpdateOptions {
  /** Clock, for tests. Default: the current time. */
  now?: () => Date
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
  options: StatusUpdateOptions = {},
): Promise<T> {
  const ref = { id: update.id, productSlug: update.productSlug }
  const now = (options.now?.() ?? new Date()).toISOString()
  const updated = await repository.update(ref, (record) => ({
    ...resource.applyStatus(record, update, now),
    id: record.id,
    productSlug: record.productSlug,
    createdAt: record.createdAt,
  }))
  if (!updated) throw new NotFoundError(resource.notFoundMessage)
  return updated
}
