import type { Store } from '@netlify/blobs'
import { SCHEDULED_SENDS_PREFIX } from './blobLayout.js'
import { singlePartition } from './listing/partitioning.js'
import { RecordCollection, type RecordCollectionOptions } from './recordCollection.js'
import { isUsableRecordId } from './recordIds.js'

/**
 * Restock sends staff scheduled for later (`POST /api/admin/notify/send` with `sendAt`), one
 * record each, `scheduled-sends/{id}`: what to send, when, and what became of it. The scheduled
 * sweep sends each once its time has come (restock/dueSends.ts); its notice id is derived from
 * the record's id, so a sweep run twice sends it once.
 */

/** `scheduled` → `sent` or `failed`. */
export const SCHEDULED_SEND_STATES = ['scheduled', 'sent', 'failed'] as const
export type ScheduledSendState = (typeof SCHEDULED_SEND_STATES)[number]

export interface ScheduledSend {
  /** `sch_<uuid>`. */
  id: string
  productSlug: string
  emailTitle: string
  emailBody: string
  /** When it is to go (ISO). */
  sendAt: string
  createdAt: string
  /** Who scheduled it (the audit trail's actor of the send), or null. */
  scheduledBy: string | null
  state: ScheduledSendState
  /** The notice it becomes when sent (known from the start). */
  notificationId: string
  /** When it was sent or failed; null while scheduled. */
  doneAt: string | null
  /** Why it failed (the send's error text); null otherwise. */
  error: string | null
}

function isScheduledSend(value: unknown): value is ScheduledSend {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const record = value as Record<string, unknown>
  return ['id', 'productSlug', 'sendAt', 'state', 'notificationId'].every(
    (field) => typeof record[field] === 'string',
  )
}

export type ScheduledSendRepository = RecordCollection<ScheduledSend, { id: string }>

export function scheduledSendRepository(
  store: Store,
  options?: RecordCollectionOptions,
): ScheduledSendRepository {
  return new RecordCollection<ScheduledSend, { id: string }>(
    store,
    {
      name: 'scheduled-sends',
      prefix: SCHEDULED_SENDS_PREFIX,
      keyOf: ({ id }) => (isUsableRecordId(id) ? `${SCHEDULED_SENDS_PREFIX}${id}` : null),
      isRecord: isScheduledSend,
      partitioning: singlePartition(SCHEDULED_SENDS_PREFIX),
    },
    options,
  )
}
