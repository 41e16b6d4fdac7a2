import { jsonResponse } from './response.js'

/**
 * An expected failure that knows its response: `{success: false, error, ...extra}` with `status`.
 * Throw it anywhere below an endpoint; the endpoint wrapper answers it and logs nothing alarming.
 */
export class HttpError extends Error {
  override name = 'HttpError'

  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }

  toResponse(): Response {
    return jsonResponse(
      { success: false, error: this.message, ...this.extra },
      { status: this.status, headers: this.headers },
    )
  }
}
