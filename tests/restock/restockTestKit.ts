import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Context } from '@netlify/functions'
import { beforeEach } from 'vitest'
import sendModule from '../../netlify/functions/admin-notify-send.js'
import { mapWithConcurrency } from '../../src/lib/concurrency.js'
import { UnauthorizedError } from '../../src/lib/errors.js'
import { requireDeliveryTicket } from '../../src/lib/restock/deliveryTicket.js'
import type { NotifySubscription } from '../../src/lib/storage/records.js'
import type { Repositories } from '../../src/lib/storage/repositories.js'
import { useBlobsServer, type RunningBlobsServer } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import type { RecordedReply, RecordedRequest } from '../../platform/recordingServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN, useApiTokens } from '../helpers/tokens.js'

export const SECRET = 'restock-unsubscribe-secret'
export const FROM = 'Shop <shop@example.test>'
export const PRODUCT = 'hario-v60-dripper'
/** The send configuration of service-level tests: Resend on, the sender's details set, local deploy. */
export const SEND_CONFIG = {
  shopName: 'テスト商店',
  shopAddress: '東京都千代田区千代田1-1',
  shopContact: 'support@example.test',
  deployContext: 'dev',
  line: null,
  unsubscribeSecret: 'restock-unsubscribe-secret',
}
export const PRODUCT_TITLE = 'HARIO V60 透過ドリッパー 02 セラミック ホワイト'

let sequence = 0

/** A stored subscription; `createdAt` increases with every call so that order is stable. */
export async function seedSubscription(
  repositories: Repositories,
  overrides: Partial<NotifySubscription> = {},
): Promise<NotifySubscription> {
  sequence += 1
  const id = overrides.id ?? `ntf_${1700000000000 + sequence}-${String(sequence).padStart(6, '0')}`
  const subscription: NotifySubscription = {
    id,
    email: `shopper${sequence}@example.test`,
    productSlug: PRODUCT,
    status: 'pending',
    createdAt: new Date(Date.UTC(2026, 0, 1) + sequence * 1000).toISOString(),
    notifiedAt: null,
    ...overrides,
  }
  await repositories.subscriptions.create(subscription, subscription)
  return subscription
}

export async function seedMany(
  repositories: Repositories,
  count: number,
  overrides: Partial<NotifySubscription> = {},
): Promise<NotifySubscription[]> {
  const indexes = Array.from({ length: count }, (_, index) => index)
  const seeded = await mapWithConcurrency(indexes, 50, () =>
    seedSubscription(repositories, overrides),
  )
  return seeded.sort((a, b) => a.createdAt.localeCompare(b.createdAt))
}

/** A Resend stand-in reply: the batch endpoint accepts every address except `rejected` (permissive errors). */
export function resendReply(rejected: ReadonlySet<string> = new Set()) {
  return (request: RecordedRequest): RecordedReply => {
    if (!request.path.startsWith('/emails/batch')) return { status: 200, body: {} }
    const emails = request.json as { to: string }[]
    const errors = emails.flatMap((email, index) =>
      rejected.has(email.to) ? [{ index, message: `Invalid \`to\` field: ${email.to}` }] : [],
    )
    const data = emails
      .filter((email) => !rejected.has(email.to))
      .map(() => ({ id: crypto.randomUUID() }))
    return { status: 200, body: { data, errors } }
  }
}

/** A clock that only moves when told to. */
export function fakeClock(start = Date.UTC(2026, 10, 22, 3, 0, 0)) {
  let time = start
  const sleeps: number[] = []
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms
    },
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms)
      time += ms
    },
  }
}

type Handler = (req: Request, context: Context) => Promise<Response>

/**
 * A stand-in for the deploy: POSTs to the background function path answer 202 at once and run
 * the handler afterwards, like Netlify. `idle()` resolves when every started run has ended.
 */
export async function startSite(
  backgroundHandler: Handler,
  /** The deploy context the background runs see (`context.deploy.context`). Default: `dev`. */
  deployContext = 'dev',
) {
  const runs: Promise<unknown>[] = []
  const received: { path: string; authorization: string | undefined; body: string }[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      received.push({ path: req.url ?? '', authorization: req.headers.authorization, body })
      if (req.url !== '/.netlify/functions/notify-deliver-background') {
        res.writeHead(404).end()
        return
      }
      res.writeHead(202).end()
      const request = new Request(`${site.url}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body,
      })
      const context = fakeContext({ deployContext })
      runs.push(
        backgroundHandler(request, context).then(async (response) => {
          await context.settled()
          return response
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const site = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    runs,
    async idle(): Promise<Response[]> {
      let seen = -1
      while (seen !== runs.length) {
        seen = runs.length
        await Promise.all(runs)
      }
      return Promise.all(runs) as Promise<Response[]>
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  return site
}

/**
 * What the delivery ticket of an `Authorization` header says, checked with `SECRET` at `now`
 * (default: the current time, for tickets the endpoints issued just now).
 */
export function ticketIn(authorization: string | null | undefined, now = Date.now()) {
  return checkTicket(authorization?.replace(/^Bearer /, '') ?? null, SECRET, now)
}

/**
 * What the delivery function's check says of `ticket`: `{ok: true, ...ticket}`, or `{ok: false,
 * reason}` with the reason it logged.
 */
export function checkTicket(ticket: string | null, secret: string, now: number) {
  const reasons: unknown[] = []
  const log = {
    requestId: 'ticket-check',
    info: () => undefined,
    warn: (_event: string, fields?: Record<string, unknown>) => void reasons.push(fields?.reason),
    error: () => undefined,
  }
  try {
    return { ok: true, ...requireDeliveryTicket(ticket, { unsubscribeSecret: secret }, log, now) }
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error
    return { ok: false, reason: reasons[0] }
  }
}

/**
 * A restock test file's world: the file's Blobs server (`useBlobsServer`, with `repositories` on
 * it), the logs captured in every test (`useLogCapture`), and before every test
 * UNSUBSCRIBE_SECRET set to `SECRET`. Read `repositories` inside tests, not at load time.
 */
export function useRestockSettings(): RunningBlobsServer {
  const blobs = useBlobsServer()
  useLogCapture()
  beforeEach(() => {
    process.env.UNSUBSCRIBE_SECRET = SECRET
  })
  return blobs
}

export const SEND_PATH = '/api/admin/notify/send'
/** A send request that passes every check. */
export const VALID_SEND = {
  productSlug: PRODUCT,
  emailTitle: '再入荷のお知らせ',
  emailBody: '入荷しました。',
}

/**
 * `useRestockSettings()` for the send endpoint: before every test both token groups are set
 * (`useApiTokens`), the sender's details too, and no e-mail provider is configured.
 */
export function useSendSettings(): RunningBlobsServer {
  const blobs = useRestockSettings()
  useApiTokens('eachTest')
  beforeEach(() => {
    delete process.env.RESEND_API_KEY
    delete process.env.RESEND_FROM_EMAIL
    // why: a production send needs the sender's details (特定電子メール法 Art. 4)
    process.env.SHOP_NAME = SEND_CONFIG.shopName
    process.env.SHOP_ADDRESS = SEND_CONFIG.shopAddress
    process.env.SHOP_CONTACT = SEND_CONFIG.shopContact
  })
  return blobs
}

/** Options of `callSendEndpoint`. */
export interface SendCallOptions {
  /** The bearer token; `null` sends none. Default: `ADMIN_TOKEN`. */
  token?: string | null
  /** The origin the request goes to (where the background function is started). Default: none. */
  base?: string
}

/** POSTs `body` to the send endpoint and answers its status and JSON body, once its background work settled. */
export async function callSendEndpoint(body: unknown, options: SendCallOptions = {}) {
  const token = options.token === undefined ? ADMIN_TOKEN : options.token
  const request = jsonRequest(`${options.base ?? ''}${SEND_PATH}`, body, { token })
  const context = fakeContext()
  const response = await sendModule(request, context)
  await context.settled()
  return readJson(response)
}

/** A product slug no other test uses, so each test sees only its own subscribers. */
export function freshProduct(prefix = 'test-product'): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}`
}
