/** What one outbound notification attempt came to. Notifiers return it; they never throw. */
export interface DeliveryResult {
  /** Which destination, e.g. `teamchat-reservation`, `communitychat`, `email`. Never a URL. */
  destination: string
  /**
   * `sent`: the destination accepted it. `skipped`: its variable is unset. `logged`: no e-mail
   * provider, the rendered e-mail went to the log. `failed`: network error, timeout, non-2xx or
   * a provider error (already logged).
   */
  outcome: 'sent' | 'skipped' | 'logged' | 'failed'
  /** HTTP status of the destination's answer, when there was one. */
  status?: number
  /** Short reason of a failure (`timeout`, `ECONNREFUSED`, `HTTP 500`, provider error name). */
  error?: string
  /** Id the provider gave the message (Resend). */
  id?: string
}

/** A short, secret-free description of a failed fetch: never the message, which may carry a URL. */
export function describeFetchFailure(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout'
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause
  if (cause && typeof cause.code === 'string') return cause.code
  return error instanceof Error ? error.name : 'unknown'
}
