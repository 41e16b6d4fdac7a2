import type { LineSettings } from '../config.js'
import { InvalidSignatureError, TryAgainLaterError } from '../errors.js'
import type { Logger } from '../log.js'

/**
 * The two calls a LINE Login makes to LINE (LINE Login v2.1 API reference): the token endpoint
 * (`POST /oauth2/v2.1/token`, authorization code + PKCE verifier → access token and ID token)
 * and the friendship status (`GET /friendship/v1/status` with the user's access token: whether
 * the user has the Login channel's linked official account as a friend). The SDK covers neither
 * for a web login. Both go to `LINE_API_BASE_URL` (default `https://api.line.me`).
 */

export interface TokenExchange {
  code: string
  codeVerifier: string
  redirectUri: string
}

export interface LineTokens {
  accessToken: string
  idToken: string
}

/** The LINE Login API of one channel. */
export interface LineAccounts {
  /** Exchanges the code: 403 when LINE refuses it, 503 when LINE cannot be reached. */
  exchangeCode(exchange: TokenExchange): Promise<LineTokens>
  /** Whether the user has the official account as a friend; null when LINE did not say. */
  friendship(accessToken: string): Promise<boolean | null>
}

export interface LineAccountsOptions {
  settings: Pick<LineSettings, 'apiBaseUrl' | 'loginChannelId' | 'loginChannelSecret'>
  timeoutMs: number
  log: Logger
  /** Default: the global `fetch`. */
  fetch?: typeof fetch
}

export function lineAccounts(options: LineAccountsOptions): LineAccounts {
  const { settings, timeoutMs, log } = options
  const call = options.fetch ?? fetch

  async function request(path: string, init: RequestInit): Promise<Response> {
    try {
      return await call(`${settings.apiBaseUrl}${path}`, {
        ...init,
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      log.warn('line.login.unreachable', {
        path,
        error: error instanceof Error ? error.message : String(error),
      })
      throw new TryAgainLaterError('LINE could not be reached')
    }
  }

  return {
    async exchangeCode({ code, codeVerifier, redirectUri }) {
      const response = await request('/oauth2/v2.1/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          client_id: settings.loginChannelId,
          client_secret: settings.loginChannelSecret,
          code_verifier: codeVerifier,
        }).toString(),
      })
      const body = (await response.json().catch(() => null)) as Record<string, unknown> | null
      if (response.status >= 500 || response.status === 429) {
        log.warn('line.login.token_failed', { status: response.status })
        throw new TryAgainLaterError('LINE could not be reached')
      }
      const accessToken = body?.access_token
      const idToken = body?.id_token
      if (!response.ok || typeof accessToken !== 'string' || typeof idToken !== 'string') {
        log.warn('line.login.token_refused', {
          status: response.status,
          error: typeof body?.error === 'string' ? body.error : undefined,
        })
        throw new InvalidSignatureError('LINE refused the login')
      }
      return { accessToken, idToken }
    },
    async friendship(accessToken) {
      const response = await request('/friendship/v1/status', {
        headers: { Authorization: `Bearer ${accessToken}` },
      })
      const body = (await response.json().catch(() => null)) as { friendFlag?: unknown } | null
      if (!response.ok || typeof body?.friendFlag !== 'boolean') {
        log.warn('line.login.friendship_unknown', { status: response.status })
        return null
      }
      return body.friendFlag
    },
  }
}
