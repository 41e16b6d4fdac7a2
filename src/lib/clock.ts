/**
 * The clock of a request: `now` when a test or a caller gives one, else the wall clock. The one
 * place the service reads the wall clock (`Date.now`); every service gets the time, in
 * milliseconds since the epoch, from the clock it is given (docs/architecture.md "One clock").
 */
export function requestClock(now?: () => number): () => number {
  return now ?? Date.now
}
