import { adminToken, preorderToken, setPreorderToken } from './session.js'
import { japaneseError } from './texts.js'

/** §5 token groups: `preorder` is archive, archive lists, unarchive and delete. */
export type TokenGroup = 'admin' | 'preorder'

/** An answer other than 2xx, with the server's `error` text and its Japanese rendering. */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly status: number,
    readonly serverMessage: string,
  ) {
    super(japaneseError(serverMessage, status))
  }
}

/** 401 on an ADMIN-group call: the signed-in token was refused (preorder refusals are plain ApiErrors). */
export class UnauthorizedError extends ApiError {
  override name = 'UnauthorizedError'
}

export interface AdminApiOptions {
  /**
   * Asked once when a `preorder` call gets 401 with the admin token (a separate
   * PREORDER_API_TOKEN is set); resolves to the token, or null when the staff member cancels.
   */
  askPreorderToken: () => Promise<string | null>
}

/** The admin endpoints over `fetch`, same origin, Bearer token; nothing else. */
export class AdminApi {
  readonly #options: AdminApiOptions

  constructor(options: AdminApiOptions) {
    this.#options = options
  }

  /** POSTs JSON to `path` with the group's token; the parsed answer, or ApiError. */
  async post<T>(path: string, body: unknown, group: TokenGroup = 'admin'): Promise<T> {
    if (group === 'admin') return this.#send<T>(path, body, adminToken())
    const stored = preorderToken()
    try {
      return await this.#send<T>(path, body, stored ?? adminToken())
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error
      if (stored) setPreorderToken(null)
      const token = await this.#options.askPreorderToken()
      if (!token) throw new ApiError(401, 'preorder-cancelled')
      try {
        const answer = await this.#send<T>(path, body, token)
        setPreorderToken(token)
        return answer
      } catch (retryError) {
        if (retryError instanceof UnauthorizedError) throw new ApiError(401, 'preorder-refused')
        throw retryError
      }
    }
  }

  async #send<T>(path: string, body: unknown, token: string | null): Promise<T> {
    let response: Response
    try {
      response = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token ?? ''}` },
        body: JSON.stringify(body),
        cache: 'no-store',
      })
    } catch {
      throw new ApiError(0, 'network')
    }
    const answer = (await response.json().catch(() => null)) as {
      success?: boolean
      error?: string
    } | null
    if (response.ok && answer) return answer as T
    const message = answer?.error ?? `HTTP ${response.status}`
    if (response.status === 401) throw new UnauthorizedError(401, message)
    throw new ApiError(response.status, message)
  }
}
