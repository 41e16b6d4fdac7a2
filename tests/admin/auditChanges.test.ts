import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import auditList from '../../netlify/functions/admin-audit-list.js'
import autoEndpoint from '../../netlify/functions/admin-notify-auto.js'
import eraseEndpoint from '../../netlify/functions/admin-people-erase.js'
import exportEndpoint from '../../netlify/functions/admin-people-export.js'
import synonymAdd from '../../netlify/functions/admin-search-synonyms-add.js'
import synonymRemove from '../../netlify/functions/admin-search-synonyms-remove.js'
import stockEndpoint from '../../netlify/functions/admin-stock.js'
import liftEndpoint from '../../netlify/functions/admin-suppressions-lift.js'
import unsubscribeHandler from '../../netlify/functions/notify-unsubscribe.js'
import manageHandler from '../../netlify/functions/reservation-manage.js'
import resendWebhook from '../../netlify/functions/resend-webhook.js'
import purge from '../../netlify/functions/retention-purge.js'
import reconcile from '../../netlify/functions/stock-reconcile.js'
import webhook from '../../netlify/functions/stock-webhook.js'
import { loadConfig } from '../../src/lib/config.js'
import { AUDIT_STORE } from '../../src/lib/storage/blobLayout.js'
import { openStore } from '../../src/lib/storage/blobStore.js'
import { emailHash } from '../../src/lib/storage/emailHash.js'
import { createManageToken } from '../../src/lib/reservations/manageLink.js'
import { createUnsubscribeToken } from '../../src/lib/compliance/unsubscribeToken.js'
import { SECRET } from '../restock/restockTestKit.js'
import {
  bounceEvent,
  signedWebhook,
  WEBHOOK_SECRET,
  WEBHOOK_URL,
} from '../compliance/complianceTestKit.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { reservation, subscription } from './adminTestKit.js'
import {
  OTHER_PRODUCT,
  PRODUCT,
  PRODUCT_SKU,
  signatureHeader,
  useStockEnvironment,
} from '../stock/stockTestKit.js'

/**
 * The change kinds beyond the record endpoints (stock from each source, automatic
 * notice settings, personal-data export and erase, suppression lift, synonyms) each append an
 * audit entry naming who made them: the STAFF_TOKENS name, the shared token's actor, or the
 * automatic source.
 */

const SATO = 'sato-audit-changes-token-0123456789'
const world = useStockEnvironment()

beforeEach(() => {
  process.env.STAFF_TOKENS = `sato:${SATO}:admin`
})

interface Entry {
  actor: string
  action: string
  record: { type: string; id: string; productSlug: string | null }
  from: string | null
  to: string | null
}

async function trail(filter: { recordId?: string; actor?: string } = {}): Promise<Entry[]> {
  const answer = await world.call(auditList, '/api/admin/audit/list', { ...filter, pageSize: 100 })
  expect(answer.status).toBe(200)
  return answer.body.entries
}

const summary = (entries: Entry[]) =>
  entries.map(({ actor, action, record, from, to }) => [actor, action, record.id, from, to])

describe('audit entries of stock changes', () => {
  it('names the staff member for a dashboard change, and records only quantities that changed', async () => {
    const set = (items: unknown[]) => world.call(stockEndpoint, '/api/admin/stock', { items }, SATO)
    expect((await set([{ productSlug: PRODUCT, quantity: 5 }])).status).toBe(200)
    expect((await set([{ productSlug: PRODUCT, quantity: 5 }])).status).toBe(200)
    await world.call(stockEndpoint, '/api/admin/stock', {
      items: [{ productSlug: PRODUCT, quantity: 2 }],
    })
    const entries = await trail({ recordId: PRODUCT })
    expect(summary(entries)).toEqual([
      ['admin', 'stock', PRODUCT, '5', '2'],
      ['sato', 'stock', PRODUCT, null, '5'],
    ])
    expect(entries[0].record).toEqual({ type: 'product', id: PRODUCT, productSlug: PRODUCT })
  })

  it('names the webhook for a signed stock event, once per event', async () => {
    const body = JSON.stringify({ id: 'evt_audit', items: [{ sku: PRODUCT_SKU, quantity: 7 }] })
    expect((await world.webhook(webhook, body, signatureHeader(body))).status).toBe(200)
    expect((await world.webhook(webhook, body, signatureHeader(body))).body.duplicate).toBe(true)
    expect(summary(await trail({ recordId: PRODUCT }))).toEqual([
      ['stock-webhook', 'stock', PRODUCT, null, '7'],
    ])
  })

  describe('the scheduled reconciliation', () => {
    let served = '[]'
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(served)
    })
    beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)))
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

    it('names stock-reconcile for what the feed changed', async () => {
      process.env.STOCK_FEED_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/s`
      served = JSON.stringify([{ productSlug: OTHER_PRODUCT, quantity: 3 }])
      const run = await world.call(reconcile, '/.netlify/functions/stock-reconcile', {}, null)
      expect(run.body).toMatchObject({ feed: 'read', changed: 1 })
      expect(summary(await trail({ actor: 'stock-reconcile' }))).toEqual([
        ['stock-reconcile', 'stock', OTHER_PRODUCT, null, '3'],
      ])
    })
  })

  it('keeps the automatic sources from being taken as a staff name', () => {
    const config = loadConfig({ STAFF_TOKENS: 'stock-webhook:abc:admin,stock-reconcile:d:admin' })
    expect(config.staffTokens).toEqual([])
    expect(config.malformedStaffTokens.map((entry) => entry.position)).toEqual([1, 2])
  })
})

describe('audit entries of settings, people, suppressions and synonyms', () => {
  it('records automatic notice settings, on and off', async () => {
    const save = (enabled: boolean, token: string) =>
      world.call(
        autoEndpoint,
        '/api/admin/notify/auto',
        { productSlug: PRODUCT, enabled, emailTitle: '再入荷', emailBody: '{url}' },
        token,
      )
    expect((await save(true, SATO)).status).toBe(200)
    expect((await save(false, ADMIN_TOKEN)).status).toBe(200)
    expect(summary(await trail({ recordId: PRODUCT }))).toEqual([
      ['admin', 'settings', PRODUCT, 'on', 'off'],
      ['sato', 'settings', PRODUCT, null, 'on'],
    ])
  })

  it('records an export and an erase by request and record ids; the trail holds no personal data', async () => {
    const email = 'hanako.audit@example.jp'
    const { reservations, subscriptions, suppressions } = world.repositories()
    const reserved = reservation({ name: '山田 花子', email, notes: '090-1111-2222' })
    const signedUp = subscription({ email })
    await reservations.create(reserved, reserved)
    await subscriptions.create(signedUp, signedUp)
    await suppressions.suppress(email, 'bounce', '2026-11-01T00:00:00.000Z')

    const exported = await world.call(exportEndpoint, '/api/admin/people/export', { email }, SATO)
    expect(exported.status).toBe(200)
    const erased = await world.call(eraseEndpoint, '/api/admin/people/erase', { email })
    expect(erased.status).toBe(200)

    // why: the entries of one request share their millisecond, so their order among them is open
    const byRequest = async (actor: string) =>
      summary(await trail({ actor })).sort((a, b) => String(a[2]).localeCompare(String(b[2])))
    const eraseId = erased.headers.get('x-request-id')
    const exportId = exported.headers.get('x-request-id')
    expect(await byRequest('admin')).toEqual([
      ['admin', 'erase', signedUp.id, null, null],
      ['admin', 'erase', eraseId, null, '2'],
      ['admin', 'erase', reserved.id, null, null],
    ])
    expect(await byRequest('sato')).toEqual([
      ['sato', 'export', signedUp.id, null, null],
      ['sato', 'export', exportId, null, '2'],
      ['sato', 'export', reserved.id, null, null],
    ])
    const [person] = (await trail({ recordId: eraseId! })).map((entry) => entry.record)
    expect(person).toEqual({ type: 'person', id: eraseId, productSlug: null })
    expect(summary(await trail({ recordId: reserved.id })).map((row) => row[1])).toEqual([
      'erase',
      'export',
    ])

    // why: read the trail's store itself, every key, not only what the list answers
    const store = openStore(AUDIT_STORE, world.context())
    const { blobs } = await store.list()
    expect(blobs.length).toBe(18)
    const stored = await Promise.all(blobs.map((blob) => store.get(blob.key)))
    const text = blobs.map((blob) => blob.key).join('\n') + stored.join('\n')
    for (const personal of [email, '山田', '090-1111-2222', emailHash(email)]) {
      expect(text).not.toContain(personal)
    }
  })

  it('records a suppression lift by the first digits of its hash', async () => {
    const { suppressions } = world.repositories()
    const entry = await suppressions.suppress('lift.me@example.jp', 'bounce', '2026-11-01T00:00Z')
    const lift = (token: string) =>
      world.call(
        liftEndpoint,
        '/api/admin/suppressions/lift',
        { emailHash: entry.emailHash },
        token,
      )
    expect((await lift(SATO)).status).toBe(200)
    expect((await lift(SATO)).status).toBe(404)
    const entries = await trail({ actor: 'sato' })
    expect(summary(entries)).toEqual([['sato', 'lift', entry.emailHash.slice(0, 12), null, null]])
    expect(entries[0].record).toMatchObject({ type: 'suppression', productSlug: null })
    expect(JSON.stringify(entries)).not.toContain('lift.me@example.jp')
  })

  it('records synonym groups added and removed', async () => {
    const added = await world.call(
      synonymAdd,
      '/api/admin/search/synonyms',
      { words: ['茶筅', 'ちゃせん'] },
      SATO,
    )
    expect(added.status).toBe(201)
    const { id } = added.body.group
    const removed = await world.call(synonymRemove, '/api/admin/search/synonyms/remove', { id })
    expect(removed.status).toBe(200)
    const entries = await trail({ recordId: id })
    expect(summary(entries)).toEqual([
      ['admin', 'synonym-remove', id, null, null],
      ['sato', 'synonym-add', id, null, '茶筅 / ちゃせん'],
    ])
    expect(entries[0].record).toEqual({ type: 'synonym', id, productSlug: null })
  })
})

describe('audit entries of changes shoppers make themselves', () => {
  it('names the customer for a cancel from the reservation page and for an unsubscribe', async () => {
    process.env.RESERVATION_LINK_SECRET = 'audit-manage-secret'
    const { reservations, subscriptions } = world.repositories()
    const reserved = reservation({ status: 'confirmed' })
    const signedUp = subscription()
    await reservations.create(reserved, reserved)
    await subscriptions.create(signedUp, signedUp)
    const post = async (
      handler: typeof manageHandler,
      path: string,
      token: string,
    ): Promise<number> => {
      const context = world.context()
      const response = await handler(
        new Request(`https://shop.example.test${path}?token=${encodeURIComponent(token)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token }).toString(),
        }),
        context,
      )
      await context.settled()
      return response.status
    }
    const manageToken = createManageToken(reserved, 'audit-manage-secret', Date.now())
    expect(await post(manageHandler, '/reservation/manage', manageToken)).toBe(200)
    expect(await post(manageHandler, '/reservation/manage', manageToken)).toBe(200)
    const unsubscribeToken = createUnsubscribeToken(signedUp, SECRET)
    expect(await post(unsubscribeHandler, '/api/notify-unsubscribe', unsubscribeToken)).toBe(200)
    expect(await post(unsubscribeHandler, '/api/notify-unsubscribe', unsubscribeToken)).toBe(200)

    expect(summary(await trail({ recordId: reserved.id }))).toEqual([
      ['customer', 'status', reserved.id, 'confirmed', 'cancelled'],
    ])
    expect(summary(await trail({ recordId: signedUp.id }))).toEqual([
      ['customer', 'status', signedUp.id, 'pending', 'unsubscribed'],
    ])
  })
})

describe('audit entries of the automatic compliance jobs', () => {
  it('names resend-webhook for the subscriptions a bounce ends, retention-purge for those it deletes', async () => {
    process.env.RESEND_WEBHOOK_SECRET = WEBHOOK_SECRET
    const { subscriptions } = world.repositories()
    const bounced = subscription({ email: 'bounced.audit@example.jp' })
    const old = subscription({
      createdAt: '2020-01-01T00:00:00.000Z',
      status: 'notified',
      notifiedAt: '2020-01-02T00:00:00.000Z',
    })
    await subscriptions.create(bounced, bounced)
    await subscriptions.create(old, old)

    const context = world.context()
    const reported = await resendWebhook(
      signedWebhook(WEBHOOK_URL, bounceEvent('bounced.audit@example.jp')),
      context,
    )
    await context.settled()
    expect(reported.status).toBe(200)
    const purged = await world.call(purge, '/.netlify/functions/retention-purge', {}, null)
    expect(purged.body.deleted.subscriptions).toBeGreaterThanOrEqual(1)

    expect(summary(await trail({ recordId: bounced.id }))).toEqual([
      ['resend-webhook', 'status', bounced.id, 'pending', 'unsubscribed'],
    ])
    expect(summary(await trail({ recordId: old.id }))).toEqual([
      ['retention-purge', 'delete', old.id, null, null],
    ])
    expect(JSON.stringify(await trail())).not.toContain('bounced.audit@example.jp')
  })
})
