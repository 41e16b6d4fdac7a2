import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { webhookEventKeys, type WebhookSource } from './blobLayout.js'

/**
 * Events a signed webhook delivered, `{source}-events/{eventId}` (an id passing
 * `isUsableRecordId`): written `onlyIfNew` when an event arrives and marked complete
 * (compare-and-swap) once its changes are stored, so that a replayed event changes nothing, and
 * an event whose first delivery died half-way is applied again when the sender retries it (a
 * stock event's quantities are absolute, an order's effects are each written once: applying
 * either again is harmless).
 */

interface EventMark {
  eventId: string
  receivedAt: string
  completedAt: string | null
}

/**
 * `new`: apply the event; `duplicate`: applied before; `in-progress`: another request is
 * applying it right now.
 */
export type EventStart = 'new' | 'duplicate' | 'in-progress'

/** An event not completed this long after it arrived is taken as lost and applied again. */
export const EVENT_RETRY_AFTER_MS = 60_000

/**
 * Days a mark is kept: far longer than any sender retries an event (Svix: about 1.5 days,
 * Shopify: 2 days), so a retried event is still recognised; then the retention purge removes it.
 */
export const EVENT_RETENTION_DAYS = 30

const PRUNE_CONCURRENCY = 10
const DAY_MS = 24 * 60 * 60_000

export interface WebhookEventLog {
  begin(eventId: string, now: number): Promise<EventStart>
  complete(eventId: string, now: number): Promise<void>
  /**
   * Deletes the marks of events that arrived more than EVENT_RETENTION_DAYS before `now`
   * (by the day index; a mark without an index entry, written before it existed or when its
   * entry's write failed, is read once and indexed, or deleted when old). Answers how many went.
   */
  prune(now: number): Promise<number>
}

const dayOf = (iso: string) => iso.slice(0, 10)

export function webhookEventLog(store: Store, source: WebhookSource): WebhookEventLog {
  const keys = webhookEventKeys(source)
  const keyOf = keys.mark
  return {
    async begin(eventId, now) {
      const mark: EventMark = {
        eventId,
        receivedAt: new Date(now).toISOString(),
        completedAt: null,
      }
      for (;;) {
        const written = await store.setJSON(keyOf(eventId), mark, { onlyIfNew: true })
        if (written.modified) {
          await store.set(keys.day(dayOf(mark.receivedAt), eventId), '')
          return 'new'
        }
        const found = await store.getWithMetadata(keyOf(eventId), { type: 'json' })
        if (!found) continue
        const seen = found.data as EventMark
        if (seen.completedAt) return 'duplicate'
        if (now - Date.parse(seen.receivedAt) < EVENT_RETRY_AFTER_MS) return 'in-progress'
        const taken = await store.setJSON(keyOf(eventId), mark, { onlyIfMatch: found.etag })
        if (taken.modified) return 'new'
      }
    },
    async complete(eventId, now) {
      for (;;) {
        const found = await store.getWithMetadata(keyOf(eventId), { type: 'json' })
        const seen = (found?.data as EventMark | undefined) ?? null
        if (seen?.completedAt) return
        const done: EventMark = {
          eventId,
          receivedAt: seen?.receivedAt ?? new Date(now).toISOString(),
          completedAt: new Date(now).toISOString(),
        }
        const condition = found ? { onlyIfMatch: found.etag } : { onlyIfNew: true as const }
        if ((await store.setJSON(keyOf(eventId), done, condition)).modified) return
      }
    },
    async prune(now) {
      const cutoff = dayOf(new Date(now - EVENT_RETENTION_DAYS * DAY_MS).toISOString())
      const { blobs: indexed } = await store.list({ prefix: keys.days })
      const indexedIds = new Set<string>()
      const old: { indexKey: string; eventId: string }[] = []
      for (const { key } of indexed) {
        const [day, ...rest] = key.slice(keys.days.length).split('/')
        const eventId = rest.join('/')
        indexedIds.add(eventId)
        if (day < cutoff) old.push({ indexKey: key, eventId })
      }
      await mapWithConcurrency(old, PRUNE_CONCURRENCY, async ({ indexKey, eventId }) => {
        await store.delete(keyOf(eventId))
        await store.delete(indexKey)
      })
      const { blobs: marks } = await store.list({ prefix: keys.marks })
      const unindexed = marks
        .map(({ key }) => key.slice(keys.marks.length))
        .filter((eventId) => !indexedIds.has(eventId))
      const removed = await mapWithConcurrency(unindexed, PRUNE_CONCURRENCY, async (eventId) => {
        const mark = (await store.get(keyOf(eventId), { type: 'json' })) as EventMark | null
        if (!mark) return 0
        const day = dayOf(mark.receivedAt)
        if (day >= cutoff) {
          await store.set(keys.day(day, eventId), '')
          return 0
        }
        await store.delete(keyOf(eventId))
        return 1
      })
      return old.length + removed.reduce((sum: number, one) => sum + one, 0)
    },
  }
}
