import type { TokenGroup } from '../lib/routes.js'
import { ROUTES, type AnsweringRoute, type RouteAnswer, type RoutesOf } from '../lib/routes.js'
import { adminToken, preorderToken, setPreorderToken } from './session.js'
import { japaneseError } from './texts.js'

/** The routes the dashboard may call: those of a token group (§5) with a JSON answer. */
export type AdminRoute = RoutesOf<'admin' | 'preorder'> & AnsweringRoute

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

  /**
   * POSTs JSON to `route` with the token of its group (the route table's `auth`); the parsed
   * answer, typed by the route's response schema, or ApiError.
   */
  async post<Name extends AdminRoute>(route: Name, body: object): Promise<RouteAnswer<Name>> {
    const { path, auth } = ROUTES[route]
    return (await this.#post(path, body, auth)) as RouteAnswer<Name>
  }

  /** GETs a file the server offers (an export's download) with the admin token; ApiError otherwise. */
  async file(path: string): Promise<Blob> {
    let response: Response
    try {
      response = await fetch(path, {
        headers: { Authorization: `Bearer ${adminToken() ?? ''}` },
        cache: 'no-store',
      })
    } catch {
      throw new ApiError(0, 'network')
    }
    if (response.ok) return response.blob()
    const answer = (await response.json().catch(() => null)) as { error?: string } | null
    const message = answer?.error ?? `HTTP ${response.status}`
    if (response.status === 401) throw new UnauthorizedError(401, message)
    throw new ApiError(response.status, message)
  }

  async #post(path: string, body: object, group: TokenGroup): Promise<unknown> {
    if (group === 'admin') return this.#send(path, body, adminToken())
    const stored = preorderToken()
    try {
      return await this.#send(path, body, stored ?? adminToken())
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error
      if (stored) setPreorderToken(null)
      const token = await this.#options.askPreorderToken()
      if (!token) throw new ApiError(401, 'preorder-cancelled')
      try {
        const answer = await this.#send(path, body, token)
        setPreorderToken(token)
        return answer
      } catch (retryError) {
        if (retryError instanceof UnauthorizedError) throw new ApiError(401, 'preorder-refused')
        throw retryError
      }
    }
  }

  async #send(path: string, body: object, token: string | null): Promise<unknown> {
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
    if (response.ok && answer) return answer
    const message = answer?.error ?? `HTTP ${response.status}`
    if (response.status === 401) throw new UnauthorizedError(401, message)
    throw new ApiError(response.status, message)
  }
}
