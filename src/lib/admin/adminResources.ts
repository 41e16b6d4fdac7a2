import type { ProductRecordRepository, Repositories } from '../storage/repositories.js'
import type { Archivable, ProductRecordRef } from '../storage/records.js'
import type { StatusUpdateRequest } from './adminSchemas.js'

/** What every record the admin endpoints manage has in common. */
export interface AdminRecord extends ProductRecordRef, Archivable {
  status: string
  createdAt: string
  /** What the lists' search (`q`) finds a record by, with its id (recordSearch.ts). */
  email: string
  name?: string
  /** The variant of the record (its id), for a product with variants. */
  variant?: string
}

/** What the work after a deletion may use: the records store and the request's clock. */
export interface RemovalServices {
  repositories: Repositories
  now: () => number
}

/**
 * Everything that differs between reservations and notify subscriptions in the admin endpoints.
 * The list, status, archive, unarchive, delete and archive-list logic is written once, over this;
 * each kind's descriptor lives with its services (reservations/reservationResource.ts,
 * subscriptions/subscriptionResource.ts).
 */
export interface AdminResource<T extends AdminRecord> {
  /** Singular noun used in per-item messages (`Failed to delete reservation`) and logs. */
  noun: 'reservation' | 'subscription'
  /** Name of the array in list answers (§4.1–§4.3, D3). */
  listField: 'reservations' | 'subscriptions'
  /** Name of the updated record in status answers (§4.4, §4.5). */
  recordField: 'reservation' | 'subscription'
  /** Statuses an admin may set or filter the active list by. */
  statuses: readonly [string, ...string[]]
  /** 404 / per-item text when the record does not exist (§7). */
  notFoundMessage: string
  /** Whether a status update carries `notes` (§4.5). */
  hasNotes: boolean
  repository(repositories: Repositories): ProductRecordRepository<T>
  /** The record after a status update; throws TransitionNotAllowedError for a refused transition (D4). */
  applyStatus(record: T, update: StatusUpdateRequest, now: string): T
  /** Work after a record was deleted (a reservation frees its units). Default: none. */
  removed?(ref: ProductRecordRef, services: RemovalServices): Promise<void>
}
