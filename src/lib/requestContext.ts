/**
 * The parts of Netlify's per-request `Context` the services use. Endpoints pass the platform's
 * `Context`; scheduled work and tests pass an object of this shape.
 */
export interface RequestContext {
  /** Netlify's request id, on every log line of the request. Default: a log id of its own. */
  requestId?: string
  /** The deploy context (`production`, `deploy-preview`, …): it picks the stores (D12) and links. */
  deploy?: { context?: string }
  /** The client's IP address (Netlify's `context.ip`); reduced before it is stored. Default: unknown. */
  ip?: string
  /** Hands over work that may finish after the response. Default: such work is not awaited. */
  waitUntil?: (promise: Promise<unknown>) => void
}
