import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createManageToken } from '../../src/lib/reservations/manageLink.js'
import { createConfirmationToken } from '../../src/lib/compliance/confirmationToken.js'
import { createUnsubscribeToken } from '../../src/lib/compliance/unsubscribeToken.js'
import { createKeepToken } from '../../src/lib/compliance/keepToken.js'
import { createStatusToken } from '../../src/lib/subscriptions/statusLink.js'
import { createHoldToken } from '../../src/lib/restock/holdLink.js'
import { holdIdFor, holdsOf, withHoldsOpened } from '../../src/lib/storage/restockHolds.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { withDevServerBlobs } from '../helpers/seedDevServer.js'
import { bounceEvent, signedWebhook, WEBHOOK_SECRET } from '../compliance/complianceTestKit.js'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { startLineStandIn, type LineStandIn } from '../../platform/lineStandIn.js'
import { lineSignature } from '../../src/lib/signing/lineSignature.js'
import { answerValidator } from './openApiValidator.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { openTranscript } from './answerTranscript.js'
import { webhookSignature } from '../../src/lib/signing/webhookSignature.js'

/**
 * Real answers of the running service (Netlify's local emulation, over HTTP) checked against the
 * document the service itself serves at /api/openapi.json: every status must be documented for
 * its path and method, and every JSON body must match its schema. Every operation is called for
 * its success and its main failures.
 */

const SECRET = 'openapi-e2e-secret'
const LINK_SECRET = 'openapi-e2e-link-secret'
let service: RunningDevServer
let line: LineStandIn
const LINE_LOGIN = { id: '1657000002', secret: 'openapi-e2e-line-login-secret' }
const LINE_MESSAGING_SECRET = 'openapi-e2e-line-messaging-secret'
let check: ReturnType<typeof answerValidator>
let document: Record<string, any>
const seen = new Set<string>()
const transcript = openTranscript()

beforeAll(async () => {
  line = await startLineStandIn({
    loginChannelId: LINE_LOGIN.id,
    loginChannelSecret: LINE_LOGIN.secret,
  })
  service = await startDevServer({
    LINE_LOGIN_CHANNEL_ID: LINE_LOGIN.id,
    LINE_LOGIN_CHANNEL_SECRET: LINE_LOGIN.secret,
    LINE_MESSAGING_CHANNEL_ACCESS_TOKEN: 'openapi-e2e-line-token',
    LINE_MESSAGING_CHANNEL_SECRET: LINE_MESSAGING_SECRET,
    LINE_API_BASE_URL: line.url,
    LINE_LOGIN_BASE_URL: line.url,
    ADMIN_API_TOKEN: ADMIN_TOKEN,
    UNSUBSCRIBE_SECRET: SECRET,
    RESERVATION_LINK_SECRET: LINK_SECRET,
    RESEND_WEBHOOK_SECRET: WEBHOOK_SECRET,
  })
  document = await (await fetch(`${service.url}/api/openapi.json`)).json()
  check = answerValidator(document)
})
afterAll(async () => {
  await service?.stop()
  await line?.close()
})

interface CallOptions {
  method?: string
  body?: unknown
  token?: string
  accept?: string
  query?: Record<string, string>
  /** The URL's path when `route` is a template (`/api/products/{slug}/availability`). */
  path?: string
  /** More request headers (a webhook's signature). */
  headers?: Record<string, string>
  /** An urlencoded form body (a page's button) instead of a JSON one. */
  form?: Record<string, string>
}

/** One request; its answer is checked against the document before the test sees it. */
async function call(route: string, options: CallOptions = {}) {
  const method = options.method ?? 'POST'
  const url = new URL(options.path ?? route, service.url)
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value)
  const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' }
  if (options.token) headers.Authorization = `Bearer ${options.token}`
  Object.assign(headers, options.headers)
  let body: string | undefined
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
  }
  if (options.form !== undefined) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(options.form).toString()
  }
  // why: a redirect (the click link of restock e-mails) is the answer itself, not followed
  const response = await fetch(url, { method, headers, body, redirect: 'manual' })
  const type = response.headers.get('content-type') ?? ''
  const text = await response.text()
  transcript.add({
    method,
    url: url.href,
    status: response.status,
    headers: response.headers,
    body: text,
  })
  const operation = document.paths[route]?.[method.toLowerCase()]
  if (response.status >= 300 && response.status < 400) {
    expect(
      operation?.responses[response.status],
      `${method} ${route} ${response.status}`,
    ).toBeDefined()
  } else if (type.startsWith('application/json')) {
    check(method, route, response.status, JSON.parse(text))
  } else if (type.startsWith('text/csv')) {
    expect(operation?.responses[response.status]?.content?.['text/csv']).toBeDefined()
  } else {
    expect(type, `${method} ${route} ${response.status}`).toMatch(/^text\/html/)
    expect(operation?.responses[response.status]?.content?.['text/html']).toBeDefined()
  }
  seen.add(`${method} ${route} ${response.status}`)
  return {
    status: response.status,
    headers: response.headers,
    body: type.startsWith('application/json') ? JSON.parse(text) : text,
  }
}

const admin = (route: string, body: unknown = {}) => call(route, { body, token: ADMIN_TOKEN })

// why: dozens of requests, each function cold-starting once in the local emulation
describe('the answers of the running service match /api/openapi.json', () => {
  it('storefront: reservation, sign-up, search, unsubscribe', { timeout: 180_000 }, async () => {
    const reservation = {
      name: '山田 花子',
      email: 'hanako@example.com',
      productSlug: 'chasen-takayama',
    }
    expect((await call('/api/reservation', { body: reservation })).status).toBe(200)
    expect(
      (await call('/api/reservation', { body: { ...reservation, website: 'x' } })).status,
    ).toBe(200)
    const invalid = await call('/api/reservation', {
      body: { name: '', email: 'x', productSlug: 'chasen-takayama' },
    })
    expect(invalid.body.details).toHaveLength(2)
    const unknown = await call('/api/reservation', {
      body: { ...reservation, productSlug: 'nope' },
    })
    expect(unknown.status).toBe(400)
    expect((await call('/api/reservation', { body: '{' })).status).toBe(400)
    expect((await call('/api/reservation', { body: '[]' })).status).toBe(400)
    expect((await call('/api/reservation', { method: 'GET' })).status).toBe(405)
    expect((await call('/api/reservation', { body: 'x'.repeat(102_401) })).status).toBe(413)

    const signup = { email: 'restock@example.com', productSlug: 'hario-v60-dripper' }
    const first = await call('/api/notify-signup', { body: signup })
    expect(first.status).toBe(200)
    expect((await call('/api/notify-signup', { body: signup })).body).toEqual(first.body)
    expect((await call('/api/notify-signup', { body: { ...signup, website: 'x' } })).status).toBe(
      200,
    )
    expect((await call('/api/notify-signup', { body: { email: 1 } })).status).toBe(400)
    expect((await call('/api/notify-signup', { method: 'GET' })).status).toBe(405)

    const found = await call('/api/search', {
      method: 'GET',
      query: { q: '入荷', excerpt_length: '80' },
    })
    expect(found.body.totalResults).toBeGreaterThan(0)
    expect(found.headers.get('cache-control')).toBe('public, max-age=300')
    expect((await call('/api/search', { method: 'GET' })).body.totalResults).toBe(0)
    expect((await call('/api/search', { method: 'POST', body: {} })).status).toBe(405)
    const suggest = '/api/search/suggest'
    expect(
      (await call(suggest, { method: 'GET', query: { q: '抹' } })).body.suggestions.length,
    ).toBeGreaterThan(0)
    expect((await call(suggest, { method: 'POST', body: {} })).status).toBe(405)

    const ref = { id: first.body.subscriptionId, productSlug: 'hario-v60-dripper' }
    const token = createUnsubscribeToken(ref, SECRET)
    const route = '/api/notify-unsubscribe'
    expect(
      (await call(route, { method: 'GET', query: { token }, accept: 'text/html' })).status,
    ).toBe(200)
    expect((await call(route, { query: { token } })).body).toEqual({ success: true })
    expect((await call(route, { query: { token: 'garbled' } })).status).toBe(400)
    const forged = createUnsubscribeToken(ref, 'another-secret')
    expect((await call(route, { query: { token: forged } })).status).toBe(403)
    const gone = createUnsubscribeToken({ ...ref, id: 'ntf_1-gone' }, SECRET)
    expect((await call(route, { query: { token: gone } })).status).toBe(404)
    expect((await call(route, { method: 'PUT', query: { token } })).status).toBe(405)
    expect(
      (await call(route, { method: 'GET', query: { token: 'garbled' }, accept: 'text/html' }))
        .status,
    ).toBe(400)
  })

  it(
    'admin: lists, status updates, statistics, restock sending, search analytics',
    { timeout: 180_000 },
    async () => {
      expect((await call('/api/admin-stats', { body: {} })).status).toBe(401)
      expect((await admin('/api/admin-stats')).body.stats.reservations.total).toBeGreaterThan(0)
      expect((await admin('/api/admin/whoami')).body).toEqual({
        success: true,
        name: 'admin',
        groups: ['admin', 'preorder'],
      })
      expect((await call('/api/admin/whoami', { body: {} })).status).toBe(401)
      expect((await call('/api/admin-stats', { method: 'GET', token: ADMIN_TOKEN })).status).toBe(
        405,
      )

      const reservations = await admin('/api/admin-reservations-list', {
        productSlug: 'chasen-takayama',
      })
      const [reservation] = reservations.body.reservations
      expect((await admin('/api/admin-reservations-list', { status: 'shipped' })).status).toBe(400)
      const subscriptions = await admin('/api/admin-notify-list', {})
      const [subscription] = subscriptions.body.subscriptions
      expect((await admin('/api/admin-notify-list', { productSlug: 3 })).status).toBe(400)

      const ref = { id: reservation.id, productSlug: reservation.productSlug }
      const update = '/api/admin-reservations-status'
      expect(
        (await admin(update, { ...ref, status: 'confirmed', notes: '店頭受け取り' })).status,
      ).toBe(200)
      expect(
        (await admin(update, { ...ref, status: 'fulfilled' })).body.reservation.respondedAt,
      ).toBeTruthy()
      expect((await admin(update, { ...ref, status: 'pending' })).status).toBe(409)
      expect((await admin(update, { id: ref.id })).status).toBe(400)
      expect((await admin(update, { ...ref, id: 'res 1', status: 'pending' })).body.error).toMatch(
        /^id and productSlug must be/,
      )
      expect((await admin(update, { ...ref, id: 'res_missing', status: 'pending' })).status).toBe(
        404,
      )
      const notifyRef = { id: subscription.id, productSlug: subscription.productSlug }
      expect(
        (await admin('/api/admin-notify-status', { ...notifyRef, status: 'pending' })).status,
      ).toBe(200)
      expect(
        (
          await admin('/api/admin-notify-status', {
            ...notifyRef,
            id: 'ntf_1-x',
            status: 'pending',
          })
        ).status,
      ).toBe(404)
      expect(
        (await admin('/api/admin-notify-status', { ...notifyRef, status: 'gone' })).status,
      ).toBe(400)

      const notice = {
        productSlug: 'hario-v60-dripper',
        emailTitle: '再入荷',
        emailBody: '入荷しました。',
      }
      // why: the subscriber set back to pending above had unsubscribed: a send skips them
      // (docs/compliance.md), so one more sign-up is the one recipient
      await call('/api/notify-signup', {
        body: { email: 'second@example.com', productSlug: 'hario-v60-dripper' },
      })
      const sent = await admin('/api/admin/notify/send', notice)
      expect(sent.body.sentCount).toBe(1)
      expect(sent.body.recipientEmails).toEqual(['second@example.com'])
      expect((await admin('/api/admin/notify/send', notice)).status).toBe(400)
      expect((await admin('/api/admin/notify/send', { emailTitle: 'x' })).body.error).toBe(
        'productSlug is required',
      )

      const history = '/api/admin/notify/history'
      const notices = await admin(history, { productSlug: 'hario-v60-dripper' })
      expect(notices.body.notifications.map((notice: { id: string }) => notice.id)).toEqual([
        sent.body.notificationId,
      ])
      const one = await admin(history, { notificationId: sent.body.notificationId })
      expect(one.body.notifications[0].failedRecipients).toEqual([])
      expect((await admin(history, { pageSize: 101 })).status).toBe(400)
      expect((await call(history, { body: {} })).status).toBe(401)

      const resume = '/api/admin/notify/resume'
      const progress = await admin(resume, { notificationId: sent.body.notificationId })
      expect(progress.body).toMatchObject({ deliveryMode: 'record-only', started: false })
      expect((await admin(resume, { notificationId: 'notif_missing' })).status).toBe(404)
      expect((await admin(resume, {})).body.error).toBe('notificationId is required')

      expect((await admin('/api/admin/search-keywords', { days: 7, limit: 5 })).status).toBe(200)
      expect((await admin('/api/admin/search-keywords', { days: 91 })).status).toBe(400)
      const overview = await admin('/api/admin/overview', { days: 7 })
      expect(overview.body.series).toHaveLength(7)
      expect((await admin('/api/admin/overview', { days: 14 })).status).toBe(400)
      expect((await call('/api/admin/overview', { body: { days: 7 } })).status).toBe(401)
      const click = await call('/api/r', { method: 'GET', query: { u: 'chasen-takayama' } })
      expect(click.status).toBe(302)
      expect(click.headers.get('location')).toMatch(/\/products\/chasen-takayama$/)
      expect((await call('/api/r', { method: 'POST', body: {} })).status).toBe(405)
      const synonyms = '/api/admin/search/synonyms'
      const added = await admin(synonyms, { words: ['鉄瓶', 'tetsubin'] })
      expect(added.status).toBe(201)
      expect((await admin(synonyms, { words: ['チャセン', 'ちゃせん'] })).status).toBe(400)
      expect((await admin(`${synonyms}/list`, {})).body.groups).toContainEqual(added.body.group)
      expect((await call(`${synonyms}/list`, { body: {} })).status).toBe(401)
      expect((await admin(`${synonyms}/remove`, { id: added.body.group.id })).status).toBe(200)
      expect((await admin(`${synonyms}/remove`, { id: added.body.group.id })).status).toBe(404)
      const audit = await admin('/api/admin/audit/list', { page: 1, pageSize: 20 })
      expect(audit.status).toBe(200)
      expect((await admin('/api/admin/audit/list', { page: 0 })).status).toBe(400)
      expect((await admin('/api/admin-stats', 'not json')).status).toBe(400)
    },
  )

  it(
    'archive group: archive, archive lists, unarchive, delete of both resources',
    { timeout: 180_000 },
    async () => {
      for (const [plural, listRoute, field] of [
        ['reservations', '/api/admin-reservations-list', 'reservations'],
        ['notify', '/api/admin-notify-list', 'subscriptions'],
      ] as const) {
        const [record] = (await admin(listRoute, {})).body[field]
        const ids = [
          { id: record.id, productSlug: record.productSlug },
          { id: 'x_missing', productSlug: record.productSlug },
        ]
        const archived = await admin(`/api/admin/${plural}/archive`, { ids })
        expect(archived.body.errors).toHaveLength(1)
        const page = await admin(`/api/admin/${plural}/archives/list`, { page: 1, pageSize: 10 })
        expect(page.body.total).toBe(1)
        expect((await admin(`/api/admin/${plural}/archives/list`, { pageSize: 101 })).status).toBe(
          400,
        )
        expect((await admin(`/api/admin/${plural}/unarchive`, { ids })).body.unarchivedCount).toBe(
          1,
        )
        expect((await admin(`/api/admin/${plural}/delete`, { ids })).body.deletedCount).toBe(1)
        for (const action of ['archive', 'unarchive', 'delete']) {
          expect((await admin(`/api/admin/${plural}/${action}`, { ids: [] })).status).toBe(400)
          expect((await call(`/api/admin/${plural}/${action}`, { body: { ids } })).status).toBe(401)
        }
        expect((await call(`/api/admin/${plural}/archives/list`, { body: {} })).status).toBe(401)
      }
    },
  )

  it(
    'consent and personal data: confirmation link, webhook, export, erase, suppressions',
    { timeout: 180_000 },
    async () => {
      const email = 'rights@example.com'
      const signup = await call('/api/notify-signup', {
        body: { email, productSlug: 'hario-v60-dripper' },
      })
      const ref = { id: signup.body.subscriptionId, productSlug: 'hario-v60-dripper' }
      const token = createConfirmationToken(ref, Date.UTC(2099, 0, 1), SECRET)
      const route = '/api/notify-confirm'
      expect(
        (await call(route, { method: 'GET', query: { token }, accept: 'text/html' })).status,
      ).toBe(200)
      expect((await call(route, { query: { token } })).body).toEqual({
        success: true,
        alreadyConfirmed: true,
      })
      expect((await call(route, { method: 'GET', query: { token: 'garbled' } })).status).toBe(400)
      expect((await call(route, { query: { token: 'garbled' } })).status).toBe(400)

      const signed = signedWebhook(`${service.url}/api/resend-webhook`, bounceEvent(email))
      const webhook = (request: Request, body: string) =>
        call('/api/resend-webhook', {
          body,
          headers: Object.fromEntries(
            [...request.headers].filter(([name]) => name.startsWith('svix-')),
          ),
        })
      const event = await signed.text()
      expect((await webhook(signed, event)).body).toMatchObject({ handled: 'suppressed' })
      expect((await webhook(signed, `${event} `)).status).toBe(401)

      const exported = await admin('/api/admin/people/export', { email })
      expect(exported.body).toMatchObject({ email, suppressed: true })
      expect((await admin('/api/admin/people/export', { email: 'nope' })).status).toBe(400)
      expect((await call('/api/admin/people/export', { body: { email } })).status).toBe(401)
      const list = await admin('/api/admin/suppressions/list')
      const entry = list.body.suppressions.find((s: { email: string }) => s.email === email)
      expect(entry).toBeDefined()
      const lift = '/api/admin/suppressions/lift'
      expect((await admin(lift, { emailHash: entry.emailHash })).status).toBe(200)
      expect((await admin(lift, { emailHash: entry.emailHash })).status).toBe(404)
      expect((await admin('/api/admin/people/erase', { email })).body.erased.subscriptions).toBe(1)
      expect((await admin('/api/admin/people/erase', {})).status).toBe(400)
      expect((await call('/api/admin/suppressions/list', { body: {} })).status).toBe(401)
    },
  )

  it('stock: list, set, automatic notice, signed webhook', { timeout: 180_000 }, async () => {
    expect((await admin('/api/admin/stock/list', {})).body.stock.length).toBeGreaterThan(0)
    expect((await call('/api/admin/stock/list', { body: {} })).status).toBe(401)
    const items = [{ productSlug: 'hario-v60-dripper', quantity: 2 }]
    expect((await admin('/api/admin/stock', { items })).status).toBe(200)
    expect((await admin('/api/admin/stock', { items: [] })).status).toBe(400)
    const preview = await admin('/api/admin/stock/preview', {
      items: [...items, { productSlug: 'nope', quantity: 1 }],
    })
    expect(preview.body.changes).toEqual([
      { productSlug: 'hario-v60-dripper', previous: 2, quantity: 2, notify: 0 },
    ])
    expect((await admin('/api/admin/stock/preview', { items: [] })).status).toBe(400)
    expect((await call('/api/admin/stock/preview', { body: { items } })).status).toBe(401)
    // a rise from 0 with the automatic notice on: the change answers the wave it started
    const waveProduct = 'porlex-hand-grinder'
    const signup = { email: 'openapi-wave@example.jp', productSlug: waveProduct }
    expect((await call('/api/notify-signup', { body: signup })).status).toBe(200)
    const waveAuto = {
      productSlug: waveProduct,
      enabled: true,
      emailTitle: '{product}',
      emailBody: '{url}',
    }
    expect((await admin('/api/admin/notify/auto', waveAuto)).status).toBe(200)
    await admin('/api/admin/stock', { items: [{ productSlug: waveProduct, quantity: 0 }] })
    const raised = await admin('/api/admin/stock', {
      items: [{ productSlug: waveProduct, quantity: 2 }],
    })
    expect(raised.body.updated[0].wave).toMatchObject({ state: 'sent', recipients: 1 })
    const auto = { productSlug: 'hario-v60-dripper', enabled: false }
    expect((await admin('/api/admin/notify/auto', auto)).status).toBe(200)
    expect((await admin('/api/admin/notify/auto', { enabled: true })).status).toBe(400)
    expect((await admin('/api/admin/notify/auto', { ...auto, productSlug: 'nope' })).status).toBe(
      404,
    )
    // why: npm start's local secret (platform/dev-server.ts)
    const body = JSON.stringify({ id: 'evt_openapi', items: [{ sku: 'SKU-1001', quantity: 1 }] })
    const t = Math.floor(Date.now() / 1000)
    const signature = `t=${t},v1=${webhookSignature('local-stock-webhook-secret', t, body)}`
    const webhook = (header: string) =>
      fetch(new URL('/api/stock-webhook', service.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Stock-Signature': header },
        body,
      }).then(async (response) => {
        const answer = await response.json()
        check('POST', '/api/stock-webhook', response.status, answer)
        seen.add(`POST /api/stock-webhook ${response.status}`)
        return { status: response.status, body: answer }
      })
    expect((await webhook(signature)).body.duplicate).toBe(false)
    expect((await webhook(signature)).body.duplicate).toBe(true)
    expect((await webhook(`t=${t},v1=${'0'.repeat(64)}`)).status).toBe(401)
  })

  it('service: the document itself', async () => {
    expect((await call('/api/openapi.json', { method: 'GET' })).body.openapi).toBe('3.1.1')
    expect((await call('/api/openapi.json', { method: 'POST', body: {} })).status).toBe(405)
  })

  it(
    'pre-orders: availability, the cap, the manage page, find, products',
    { timeout: 180_000 },
    async () => {
      const availability = '/api/products/{slug}/availability'
      const product = 'kiyomizu-matcha-chawan'
      const at = (slug: string) => ({ method: 'GET', path: `/api/products/${slug}/availability` })
      expect((await call(availability, at(product))).body).toMatchObject({ success: true })
      expect((await call(availability, at('no-such-product'))).status).toBe(404)
      const reserve = (email: string) =>
        call('/api/reservation', {
          body: { name: '予約 花子', email, productSlug: product, quantity: 2 },
        })
      const first = await reserve('preorder-1@example.jp')
      expect(first.status).toBe(200)
      expect((await reserve('preorder-2@example.jp')).status).toBe(200)
      const over = await reserve('preorder-3@example.jp')
      expect(over.status).toBe(409)
      expect(over.body.remaining).toBe(1)

      const id = first.body.reservationId as string
      expect((await admin('/api/admin/reservations/find', { id })).body.reservation.id).toBe(id)
      expect((await admin('/api/admin/reservations/find', { id: 'res_gone' })).status).toBe(404)
      expect(
        (await admin('/api/admin/reservations/products')).body.products.length,
      ).toBeGreaterThan(0)
      expect((await call('/api/admin/reservations/products', { body: {} })).status).toBe(401)

      const manage = '/reservation/manage'
      const token = createManageToken({ id, productSlug: product }, LINK_SECRET, Date.now())
      const page = { query: { token }, accept: 'text/html' }
      expect((await call(manage, { method: 'GET', ...page })).status).toBe(200)
      expect((await call(manage, { method: 'POST', ...page })).status).toBe(200)
      const forged = createManageToken({ id, productSlug: product }, 'another-secret', Date.now())
      expect((await call(manage, { method: 'POST', query: { token: forged } })).status).toBe(403)
      expect((await call(manage, { method: 'GET', query: { token: 'garbled' } })).status).toBe(400)
      expect((await call(availability, at(product))).body.remaining).toBe(3)
    },
  )

  it(
    'lists: pages, cursors and CSV exports by the background function',
    { timeout: 180_000 },
    async () => {
      for (const email of ['page-1@example.jp', 'page-2@example.jp']) {
        const body = { name: '頁 太郎', email, productSlug: 'chasen-takayama' }
        expect((await call('/api/reservation', { body })).status).toBe(200)
      }
      const list = '/api/admin-reservations-list'
      const page = await admin(list, { pageSize: 1 })
      expect(page.body.reservations).toHaveLength(1)
      expect(typeof page.body.nextCursor).toBe('string')
      const next = await admin(list, { pageSize: 1, cursor: page.body.nextCursor })
      expect(next.status).toBe(200)
      expect((await admin(list, { pageSize: 501 })).status).toBe(400)
      expect((await admin(list, { status: 'pending', cursor: page.body.nextCursor })).status).toBe(
        400,
      )

      const created = await admin('/api/admin/exports', { list: 'reservations' })
      expect(created.body.export.state).toBe('queued')
      const exportId = created.body.export.exportId
      expect((await admin('/api/admin/exports', { list: 'everything' })).status).toBe(400)
      let job = created.body.export
      for (let tries = 0; tries < 60 && job.state !== 'done'; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 500))
        job = (await admin('/api/admin/exports/status', { exportId })).body.export
      }
      expect(job.state).toBe('done')
      expect((await admin('/api/admin/exports/status', { exportId: 'exp_none' })).status).toBe(404)
      const download = '/api/admin/exports/download'
      const file = await call(download, { method: 'GET', query: { exportId }, token: ADMIN_TOKEN })
      expect(file.status).toBe(200)
      expect(file.headers.get('content-disposition')).toContain("filename*=UTF-8''")
      expect(String(file.body)).toContain('予約番号,受付日時,名前')
      const missing = await call(download, {
        method: 'GET',
        query: { exportId: 'exp_none' },
        token: ADMIN_TOKEN,
      })
      expect(missing.status).toBe(404)
      expect((await call(download, { method: 'GET', query: { exportId } })).status).toBe(401)
    },
  )

  it(
    'variants: reserve, sign up, availability, stock, lists, statistics and a send per variant',
    { timeout: 180_000 },
    async () => {
      const mug = { name: '藍 花子', email: 'variant@example.jp', productSlug: 'mino-mug' }
      expect((await call('/api/reservation', { body: { ...mug, variant: 'ai' } })).status).toBe(200)
      for (const body of [
        mug,
        { ...mug, variant: 'kuro' },
        { ...mug, productSlug: 'chasen-takayama', variant: 'ai' },
      ]) {
        const refused = await call('/api/reservation', { body })
        expect(refused.status).toBe(400)
        expect(refused.body.details[0].field).toBe('variant')
      }
      const signup = { email: 'variant@example.jp', productSlug: 'mino-mug', variant: 'shiro' }
      expect((await call('/api/notify-signup', { body: signup })).status).toBe(200)
      expect(
        (await call('/api/notify-signup', { body: { ...signup, variant: undefined } })).status,
      ).toBe(400)

      const availability = '/api/products/{slug}/availability'
      const shirt = await call(availability, {
        method: 'GET',
        path: '/api/products/shop-tshirt/availability',
      })
      expect(shirt.body.variants).toHaveLength(4)

      const stock = await admin('/api/admin/stock', {
        items: [
          { productSlug: 'mino-mug', variant: 'ame', quantity: 3 },

          { productSlug: 'mino-mug', quantity: 1 },
        ],
      })
      expect(stock.body.errors).toHaveLength(1)
      const list = await admin('/api/admin-reservations-list', {
        productSlug: 'mino-mug',
        variant: 'ai',
      })
      expect(list.body.reservations).toHaveLength(1)
      expect((await admin('/api/admin-reservations-list', { variant: 'ai' })).status).toBe(400)
      expect((await admin('/api/admin-stats')).body.stats.notify.byVariant).toEqual({
        'mino-mug': { shiro: 1 },
      })
      const send = await admin('/api/admin/notify/send', {
        productSlug: 'mino-mug',
        variant: 'shiro',
        emailTitle: '白が再入荷しました',
        emailBody: 'お待たせしました。',
      })
      expect(send.body.sentCount).toBe(1)
      expect(
        (
          await admin('/api/admin/notify/send', {
            productSlug: 'mino-mug',
            variant: 'kuro',
            emailTitle: 't',
            emailBody: 'b',
          })
        ).status,
      ).toBe(400)
    },
  )
  // why: last, so that the ids it makes come after every other entry's in the transcript
  it('storefront and service: the keep link of a long-waiting sign-up, the order webhook', async () => {
    const signup = await call('/api/notify-signup', {
      body: { email: 'keep@example.com', productSlug: 'hario-v60-dripper' },
    })
    const ref = { id: signup.body.subscriptionId as string, productSlug: 'hario-v60-dripper' }
    // why: as the daily run leaves a sign-up it asked a day ago
    const askedAt = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString()
    await withDevServerBlobs(service.root, async (context) => {
      await openRepositories(context).subscriptions.update(ref, (current) => ({
        ...current,
        keepAskedAt: askedAt,
      }))
    })
    const token = createKeepToken(ref, askedAt, SECRET)
    const keep = '/api/notify-keep'
    const page = await call(keep, { method: 'GET', query: { token }, accept: 'text/html' })
    expect(page.status).toBe(200)
    expect((await call(keep, { query: { token } })).body).toEqual({
      success: true,
      alreadyKept: false,
    })
    expect((await call(keep, { query: { token } })).body.alreadyKept).toBe(true)
    const broken = await call(keep, {
      method: 'GET',
      query: { token: 'broken' },
      accept: 'text/html',
    })
    expect(broken.status).toBe(400)
    const forged = createKeepToken(ref, askedAt, 'another-secret')
    expect((await call(keep, { query: { token: forged } })).status).toBe(403)

    // the 「入荷待ちの状況」 page of the same sign-up, and a forged link to it
    const status = (token: string) =>
      call('/notify/status', { method: 'GET', query: { token }, accept: 'text/html' })
    expect((await status(createStatusToken(ref, SECRET, Date.now()))).status).toBe(200)
    expect((await status(createStatusToken(ref, 'another-secret', Date.now()))).status).toBe(403)

    // why: npm start's local secret (platform/dev-server.ts)
    const body = JSON.stringify({
      id: 'order_openapi',
      email: 'keep@example.com',
      items: [{ sku: 'SKU-1001', quantity: 1 }],
      total: 6600,
    })
    const t = Math.floor(Date.now() / 1000)
    const signed = `t=${t},v1=${webhookSignature('local-order-webhook-secret', t, body)}`
    const order = (header: string) =>
      call('/api/order-webhook', { body, headers: { 'X-Order-Signature': header } })
    expect((await order(signed)).body.products).toMatchObject([{ closedSignups: 1 }])
    expect((await order(signed)).body.duplicate).toBe(true)
    expect((await order(`t=${t},v1=${'0'.repeat(64)}`)).status).toBe(401)

    // a unit held for a sign-up, as a wave's delivery leaves it (お取り置き)
    const waiter = await call('/api/notify-signup', {
      body: { email: 'hold@example.com', productSlug: 'chasen-takayama' },
    })
    const subscriptionId = waiter.body.subscriptionId as string
    const target = { productSlug: 'chasen-takayama' }
    let endsAt = ''
    await withDevServerBlobs(service.root, async (context) => {
      const { after } = await openRepositories(context).stock.change(target, (current) =>
        withHoldsOpened(
          { ...current, quantity: 1 },
          [{ subscriptionId, notificationId: 'notif_openapi-hold', hours: 24 }],
          Date.now(),
        ),
      )
      endsAt = holdsOf(after)[holdIdFor('notif_openapi-hold', subscriptionId)].endsAt!
    })
    const holdToken = createHoldToken(
      { holdId: holdIdFor('notif_openapi-hold', subscriptionId), target },
      Date.parse(endsAt),
      SECRET,
    )
    const hold = '/reservation/hold'
    const holdPage = await call(hold, {
      method: 'GET',
      query: { token: holdToken },
      accept: 'text/html',
    })
    expect(holdPage.status).toBe(200)
    expect((await call(hold, { query: { token: holdToken } })).status).toBe(400)
    const claimed = await call(hold, { query: { token: holdToken }, form: { name: '鈴木 花子' } })
    expect(claimed.body).toMatchObject({ success: true, alreadyReserved: false })
    const forgedHold = `${holdToken.slice(0, -1)}${holdToken.endsWith('A') ? 'B' : 'A'}`
    const refused = await call(hold, { method: 'GET', query: { token: forgedHold } })
    expect(refused.status).toBe(403)
  })

  it('LINE: the login, its callback and the webhook', async () => {
    line.nextLogin = { userId: `U${'c'.repeat(32)}`, addsFriend: true }
    const get = (route: string, query: Record<string, string>) =>
      call(route, { method: 'GET', query, accept: 'text/html' })
    const login = await get('/api/line/login', { productSlug: 'hario-v60-dripper' })
    expect(login.status).toBe(302)
    expect((await get('/api/line/login', { productSlug: 'mino-mug' })).status).toBe(400)
    const atLine = await fetch(login.headers.get('location')!, { redirect: 'manual' })
    const back = Object.fromEntries(new URL(atLine.headers.get('location')!).searchParams)
    expect((await get('/api/line/callback', back)).status).toBe(200)
    // why: LINE refuses a code used before
    expect((await get('/api/line/callback', back)).status).toBe(403)

    const body = JSON.stringify({
      destination: 'U0',
      events: [
        {
          type: 'unfollow',
          timestamp: 1764000000000,
          source: { type: 'user', userId: line.nextLogin.userId },
        },
      ],
    })
    const webhook = (signature: string) =>
      call('/api/line-webhook', { body, headers: { 'X-Line-Signature': signature } })
    expect((await webhook(lineSignature(LINE_MESSAGING_SECRET, body))).body).toMatchObject({
      handled: 1,
      unsubscribed: 1,
    })
    expect((await webhook(lineSignature('another-secret', body))).status).toBe(401)
  })

  it('called every operation for a success and a failure', () => {
    const missing: string[] = []
    for (const [route, methods] of Object.entries<any>(document.paths)) {
      for (const method of Object.keys(methods)) {
        if (route.startsWith('/.netlify/')) continue // why: background and scheduled functions: the platform answers for them
        const own = [...seen]
          .filter((entry) => entry.startsWith(`${method.toUpperCase()} ${route} `))
          .map((entry) => Number(entry.split(' ').pop()))
        // why: a wrong method (405) is a failure of the path, whichever method was tried
        const wrongMethod = [...seen].some((entry) => entry.endsWith(` ${route} 405`))
        // why: a redirect is the success of the click link
        if (!own.some((code) => code < 400)) missing.push(`${method} ${route}: no success`)
        if (!own.some((code) => code >= 400) && !wrongMethod) {
          missing.push(`${method} ${route}: no failure`)
        }
      }
    }
    expect(missing).toEqual([])
  })

  it('answers byte for byte as recorded (ids, times, origins and signatures aside)', async () => {
    await expect(transcript.text()).toMatchFileSnapshot('./recordedAnswers.txt')
  })
})
