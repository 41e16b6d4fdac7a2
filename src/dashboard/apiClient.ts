import type { TokenGroup } from '../lib/routes.js'
import { ROUTES, type AnsweringRoute, type RouteAnswer, type RoutesOf } from '../lib/routes.js'
import { adminToken } from './session.js'
import { japaneseError } from './texts.js'

/** The routes the dashboard may call: those of a token group (§5) with a JSON answer. */
export type AdminRoute = RoutesOf<'admin' | 'preorder' | 'staff'> & AnsweringRoute

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

/** 401: the signed-in token was refused (it was changed or removed on the server). */
export class UnauthorizedError extends ApiError {
  override name = 'UnauthorizedError'
}

/** The admin endpoints over `fetch`, same origin, Bearer token; nothing else. */
export class AdminApi {
  /** The groups of the signed-in token (`whoami`); null until it is known. */
  groups: readonly TokenGroup[] | null = null

  /**
   * POSTs JSON to `route` with the signed-in token; the parsed answer, typed by the route's
   * response schema, or ApiError. A route of a group the token lacks is never called (its answer
   * would be a 401 that signs the person out): `not-allowed`.
   */
  async post<Name extends AdminRoute>(route: Name, body: object): Promise<RouteAnswer<Name>> {
    const { path, auth } = ROUTES[route]
    if (auth !== 'staff' && this.groups && !this.groups.includes(auth)) {
      throw new ApiError(403, 'not-allowed')
    }
    return (await this.#send(path, body, adminToken())) as RouteAnswer<Name>
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
