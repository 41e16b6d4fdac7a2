import type { Store } from '@netlify/blobs'
import { stockEventKey } from './blobLayout.js'

/**
 * Stock webhook events seen, `stock-events/{eventId}` (an id passing `isUsableRecordId`): written `onlyIfNew` when an event
 * arrives and marked complete (compare-and-swap) once its changes are stored, so that a replayed
 * event changes nothing, and an event whose first delivery died half-way is applied again when
 * the sender retries it (its quantities are absolute, so applying them again is harmless).
 */

interface StockEventMark {
  eventId: string
  receivedAt: string
  completedAt: string | null
}

/**
 * `new`: apply the event; `duplicate`: applied before; `in-progress`: another request is
 * applying it right now.
 */
export type StockEventStart = 'new' | 'duplicate' | 'in-progress'

/** An event not completed this long after it arrived is taken as lost and applied again. */
export const STOCK_EVENT_RETRY_AFTER_MS = 60_000

export interface StockEventLog {
  begin(eventId: string, now: number): Promise<StockEventStart>
  complete(eventId: string, now: number): Promise<void>
}

export function stockEventLog(store: Store): StockEventLog {
  const keyOf = stockEventKey
  return {
    async begin(eventId, now) {
      const mark: StockEventMark = {
        eventId,
        receivedAt: new Date(now).toISOString(),
        completedAt: null,
      }
      for (;;) {
        const written = await store.setJSON(keyOf(eventId), mark, { onlyIfNew: true })
        if (written.modified) return 'new'
        const found = await store.getWithMetadata(keyOf(eventId), { type: 'json' })
        if (!found) continue
        const seen = found.data as StockEventMark
        if (seen.completedAt) return 'duplicate'
        if (now - Date.parse(seen.receivedAt) < STOCK_EVENT_RETRY_AFTER_MS) return 'in-progress'
        const taken = await store.setJSON(keyOf(eventId), mark, { onlyIfMatch: found.etag })
        if (taken.modified) return 'new'
      }
    },
    async complete(eventId, now) {
      for (;;) {
        const found = await store.getWithMetadata(keyOf(eventId), { type: 'json' })
        const seen = (found?.data as StockEventMark | undefined) ?? null
        if (seen?.completedAt) return
        const done: StockEventMark = {
          eventId,
          receivedAt: seen?.receivedAt ?? new Date(now).toISOString(),
          completedAt: new Date(now).toISOString(),
        }
        const condition = found ? { onlyIfMatch: found.etag } : { onlyIfNew: true as const }
        if ((await store.setJSON(keyOf(eventId), done, condition)).modified) return
      }
    },
  }
}
