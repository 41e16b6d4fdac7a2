import { createHash, createHmac, randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local stand-in for LINE (the Login page, the Login API and the Messaging API), for tests and
 * `npm start`: point `LINE_LOGIN_BASE_URL` and `LINE_API_BASE_URL` at it. It behaves as LINE's
 * references describe, on the parts the service uses:
 * - `GET /oauth2/v2.1/authorize`: logs in `nextLogin` at once (no screen) and redirects to
 *   `redirect_uri` with a code and the state; with `bot_prompt` and `nextLogin.addsFriend` the
 *   user becomes a friend on the way, as on LINE's consent screen;
 * - `POST /oauth2/v2.1/token`: checks client id and secret, the code (once), `redirect_uri` and
 *   the PKCE verifier (S256), and answers an access token and an HS256 ID token signed with the
 *   Login channel secret (`iss`, `sub`, `aud`, `exp`, `iat`, `nonce`);
 * - `GET /friendship/v1/status`: `{friendFlag}` for the access token's user;
 * - `POST /v2/bot/message/push`: records the push; a repeated `X-Line-Retry-Key` is answered 409
 *   with `X-Line-Accepted-Request-Id` and is not sent again (`loseAnswers` answers accepted
 *   pushes 500, so a sender's retry meets that 409);
 * - `GET /v2/bot/message/quota` and `/quota/consumption`: the monthly plan and what was pushed.
 * Run on its own (`tsx platform/lineStandIn.ts`) it listens on `LINE_STAND_IN_PORT` (default 4020)
 * and prints each push as one JSON line; its first login is the user `README_LINE_USER`.
 */

export interface LineStandInOptions {
  loginChannelId: string
  loginChannelSecret: string
  /** Default: a free one. */
  port?: number
  /** Printed per push (the command-line stand-in prints JSON lines). Default: nothing. */
  onPush?: (push: RecordedPush) => void
  /** The LINE user id the first login signs in. Default: a new random one. */
  firstUserId?: string
}

/** The user the command-line stand-in logs in first (README "LINE" uses it). */
export const README_LINE_USER = 'U0123456789abcdef0123456789abcdef'

export interface RecordedPush {
  to: string
  messages: unknown[]
  retryKey: string | null
  requestId: string
}

export interface LineStandIn {
  url: string
  /** Who logs in next, and whether they add the official account on LINE's screen. */
  nextLogin: { userId: string; addsFriend: boolean }
  /** Users who have the official account as a friend. */
  friends: Set<string>
  /** When set, ID tokens carry this nonce instead of the one asked for (a wrong nonce). */
  idTokenNonce: string | null
  /** Pushes sent (a repeated retry key adds nothing). */
  pushes: RecordedPush[]
  /** Push calls refused as repeats of an accepted retry key. */
  repeatedKeys: string[]
  /**
   * Pushes still to be accepted but answered 500, as if the answer were lost on the way: the
   * sender retries with the same key and is answered 409 (how a retried push stays one push).
   */
  loseAnswers: number
  /** The monthly plan (`null`: unlimited) and pushes counted this month. */
  quota: { limit: number | null; usage: number }
  close(): Promise<void>
}

interface IssuedCode {
  clientId: string
  redirectUri: string
  challenge: string
  nonce: string | null
  userId: string
  used: boolean
}

const ISSUER = 'https://access.line.me'

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}

export async function startLineStandIn(options: LineStandInOptions): Promise<LineStandIn> {
  const codes = new Map<string, IssuedCode>()
  const accessTokens = new Map<string, string>()
  const acceptedKeys = new Map<string, string>()
  const sockets = new Set<import('node:net').Socket>()
  const state: LineStandIn = {
    url: '',
    nextLogin: {
      userId: options.firstUserId ?? `U${randomUUID().replace(/-/g, '')}`,
      addsFriend: true,
    },
    friends: new Set(),
    idTokenNonce: null,
    pushes: [],
    repeatedKeys: [],
    loseAnswers: 0,
    quota: { limit: 1000, usage: 0 },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }

  function idToken(code: IssuedCode, now: number): string {
    const header = base64url({ typ: 'JWT', alg: 'HS256' })
    const payload = base64url({
      iss: ISSUER,
      sub: code.userId,
      aud: code.clientId,
      exp: Math.floor(now / 1000) + 3600,
      iat: Math.floor(now / 1000),
      ...((state.idTokenNonce ?? code.nonce) ? { nonce: state.idTokenNonce ?? code.nonce } : {}),
      amr: ['linesso'],
      name: 'LINE 花子',
    })
    const signature = createHmac('sha256', options.loginChannelSecret)
      .update(`${header}.${payload}`)
      .digest('base64url')
    return `${header}.${payload}.${signature}`
  }

  function answer(req: http.IncomingMessage, body: string, url: URL) {
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => ({
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(value),
    })
    if (req.method === 'GET' && url.pathname === '/oauth2/v2.1/authorize') {
      const query = url.searchParams
      if (
        query.get('response_type') !== 'code' ||
        query.get('client_id') !== options.loginChannelId ||
        query.get('code_challenge_method') !== 'S256' ||
        !query.get('code_challenge') ||
        !query.get('redirect_uri') ||
        !query.get('state')
      ) {
        return json(400, { error: 'invalid_request' })
      }
      const login = state.nextLogin
      let friendshipChanged = false
      if (query.get('bot_prompt') && login.addsFriend && !state.friends.has(login.userId)) {
        state.friends.add(login.userId)
        friendshipChanged = true
      }
      const code = randomUUID().replace(/-/g, '')
      codes.set(code, {
        clientId: options.loginChannelId,
        redirectUri: query.get('redirect_uri')!,
        challenge: query.get('code_challenge')!,
        nonce: query.get('nonce'),
        userId: login.userId,
        used: false,
      })
      const back = new URL(query.get('redirect_uri')!)
      back.searchParams.set('code', code)
      back.searchParams.set('state', query.get('state')!)
      if (query.get('bot_prompt')) {
        back.searchParams.set('friendship_status_changed', String(friendshipChanged))
      }
      return { status: 302, headers: { Location: back.toString() }, body: '' }
    }
    if (req.method === 'POST' && url.pathname === '/oauth2/v2.1/token') {
      const form = new URLSearchParams(body)
      const code = codes.get(form.get('code') ?? '')
      const verifier = form.get('code_verifier') ?? ''
      const challenge = createHash('sha256').update(verifier).digest('base64url')
      if (
        form.get('grant_type') !== 'authorization_code' ||
        form.get('client_id') !== options.loginChannelId ||
        form.get('client_secret') !== options.loginChannelSecret ||
        !code ||
        code.used ||
        code.redirectUri !== form.get('redirect_uri') ||
        code.challenge !== challenge
      ) {
        return json(400, { error: 'invalid_grant', error_description: 'invalid request' })
      }
      code.used = true
      const accessToken = randomUUID()
      accessTokens.set(accessToken, code.userId)
      return json(200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 2592000,
        scope: 'profile openid',
        refresh_token: randomUUID(),
        id_token: idToken(code, Date.now()),
      })
    }
    if (req.method === 'GET' && url.pathname === '/friendship/v1/status') {
      const userId = accessTokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''))
      if (!userId) return json(401, { message: 'invalid token' })
      return json(200, { friendFlag: state.friends.has(userId) })
    }
    if (req.method === 'POST' && url.pathname === '/v2/bot/message/push') {
      const retryKey = (req.headers['x-line-retry-key'] as string | undefined) ?? null
      const accepted = retryKey ? acceptedKeys.get(retryKey) : undefined
      if (accepted) {
        state.repeatedKeys.push(retryKey!)
        return json(
          409,
          { message: 'The retry key is already accepted' },
          { 'X-Line-Request-Id': randomUUID(), 'X-Line-Accepted-Request-Id': accepted },
        )
      }
      const request = JSON.parse(body || '{}') as { to?: string; messages?: unknown[] }
      const requestId = randomUUID()
      if (retryKey) acceptedKeys.set(retryKey, requestId)
      const push: RecordedPush = {
        to: request.to ?? '',
        messages: request.messages ?? [],
        retryKey,
        requestId,
      }
      state.pushes.push(push)
      state.quota.usage += 1
      options.onPush?.(push)
      if (state.loseAnswers > 0) {
        state.loseAnswers -= 1
        return json(500, { message: 'An error occurred in the server' })
      }
      return json(
        200,
        { sentMessages: [{ id: randomUUID(), quoteToken: randomUUID() }] },
        {
          'X-Line-Request-Id': requestId,
        },
      )
    }
    if (req.method === 'GET' && url.pathname === '/v2/bot/message/quota') {
      return json(
        200,
        state.quota.limit === null
          ? { type: 'none' }
          : { type: 'limited', value: state.quota.limit },
      )
    }
    if (req.method === 'GET' && url.pathname === '/v2/bot/message/quota/consumption') {
      return json(200, { totalUsage: state.quota.usage })
    }
    return json(404, { message: 'Not found' })
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const reply = answer(
        req,
        Buffer.concat(chunks).toString('utf8'),
        new URL(req.url ?? '/', state.url),
      )
      res.writeHead(reply.status, reply.headers)
      res.end(reply.body)
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', resolve)
  })
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const standIn = await startLineStandIn({
    loginChannelId: process.env.LINE_LOGIN_CHANNEL_ID ?? '1234567890',
    loginChannelSecret: process.env.LINE_LOGIN_CHANNEL_SECRET ?? 'local-line-login-secret',
    port: Number(process.env.LINE_STAND_IN_PORT ?? 4020),
    firstUserId: README_LINE_USER,
    onPush: (push) => console.log(JSON.stringify(push)),
  })
  console.log(`LINE stand-in on ${standIn.url}`)
}
