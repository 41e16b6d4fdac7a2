/**
 * The clock of a request: `now` when a test or a caller gives one, else the wall clock. The one
 * place the service reads the wall clock (`Date.now`); every service gets the time, in
 * milliseconds since the epoch, from the clock it is given (docs/architecture.md "One clock").
 */
export function requestClock(now?: () => number): () => number {
  return now ?? Date.now
}

// why: a time with its offset (Z or ±hh:mm); without one, the server's zone would decide it
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/

/**
 * `text` as ms since the epoch when it is an ISO 8601 time with its offset
 * (`2026-11-24T08:00:00+09:00`) on a real calendar day, else null: how a time a caller sends
 * (a scheduled send's `sendAt`, an order's `at`) is read.
 */
export function parseIsoTime(text: string): number | null {
  if (!ISO_TIME.test(text)) return null
  const [year, month, day] = text.slice(0, 10).split('-').map(Number)
  // why: Date.parse takes 2026-02-30 for March 2
  const calendar = new Date(Date.UTC(year, month - 1, day))
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return null
  const at = Date.parse(text)
  return Number.isFinite(at) ? at : null
}
