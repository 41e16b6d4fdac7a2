import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import manageHandler from '../../netlify/functions/reservation-manage.js'
import statusHandler from '../../netlify/functions/admin-reservations-status.js'
import availabilityHandler from '../../netlify/functions/product-availability.js'
import { loadConfig } from '../../src/lib/config.js'
import { createLogger } from '../../src/lib/log.js'
import {
  createManageToken,
  MANAGE_LINK_LIFETIME_MS,
  verifyManageToken,
} from '../../src/lib/reservations/manageLink.js'
import { answerManage } from '../../src/lib/reservations/manageReservation.js'
import { InvalidSignatureError } from '../../src/lib/errors.js'
import { openServices } from '../../src/lib/services.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import type { Reservation } from '../../src/lib/storage/records.js'
import { fakeContext } from '../helpers/context.js'
import {
  defaultReply,
  startRecordingServer,
  type RecordingServer,
} from '../../platform/recordingServer.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { clearOutbound, pointOutboundAt } from '../forms/formTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { ADMIN_TOKEN, useApiTokens } from '../helpers/tokens.js'

/**
 * `/reservation/manage`: the signed link of the reservation e-mails. GET shows and
 * changes nothing; POST cancels a pending or confirmed reservation, frees its units and tells the
 * team chat; tampered, foreign, expired and replayed links do nothing.
 */

const SECRET = 'manage-secret-for-tests'
const ADMIN = ADMIN_TOKEN
const PRODUCT = 'kiyomizu-matcha-chawan'
const BASE = 'http://localhost:8888'
let server: RecordingServer
useBlobsServer()
beforeAll(clearOutbound)
useLogCapture()
useApiTokens()

beforeAll(async () => {
  server = await startRecordingServer()
})
afterAll(async () => {
  delete process.env.RESERVATION_LINK_SECRET
  await server.close()
})
beforeEach(() => {
  pointOutboundAt(server, 1000)
  process.env.RESERVATION_LINK_SECRET = SECRET
  server.requests.length = 0
  server.reply = defaultReply
})

let worlds = 0
async function world(overrides: Partial<Reservation> = {}) {
  const deployContext = `manage-${process.pid}-${++worlds}`
  const context = () => fakeContext({ deployContext })
  const { reservations } = openRepositories(context())
  const record: Reservation = {
    id: `res_manage-${worlds}`,
    name: '管理 花子',
    email: 'manage@example.com',
    productSlug: PRODUCT,
    status: 'pending',
    notes: '',
    createdAt: '2026-11-20T01:00:00.000Z',
    respondedAt: null,
    quantity: 2,
    ...overrides,
  }
  await reservations.create(record, record)
  const token = createManageToken(record, SECRET, Date.now())
  async function page(method: 'GET' | 'POST', link = token) {
    const url = `${BASE}/reservation/manage?token=${encodeURIComponent(link)}`
    const init: RequestInit =
      method === 'POST'
        ? {
            method,
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ token: link }).toString(),
          }
        : { method }
    const ctx = context()
    const response = await manageHandler(new Request(url, init), ctx)
    await ctx.settled()
    return { status: response.status, headers: response.headers, html: await response.text() }
  }
  return {
    record,
    token,
    page,
    stored: () => reservations.get(record),
    remaining: async () => {
      const ctx = context()
      const answer = await readJson(
        await availabilityHandler(
          jsonRequest(`/api/products/${PRODUCT}/availability`, undefined, { method: 'GET' }),
          ctx,
        ),
      )
      return answer.body.remaining as number
    },
    setStatus: async (status: string) => {
      const ctx = context()
      const answer = await readJson(
        await statusHandler(
          jsonRequest(
            '/api/admin-reservations-status',
            { id: record.id, productSlug: PRODUCT, status },
            { token: ADMIN },
          ),
          ctx,
        ),
      )
      await ctx.settled()
      return answer
    },
  }
}

function expectPageHeaders(headers: Headers): void {
  expect(headers.get('content-type')).toBe('text/html; charset=utf-8')
  expect(headers.get('cache-control')).toBe('no-store')
  expect(headers.get('referrer-policy')).toBe('no-referrer')
  expect(headers.get('content-security-policy')).toBe(
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  )
}

/** The token with one character of its payload or signature changed. */
function tampered(token: string, part: 0 | 1): string {
  const parts = token.split('.')
  const text = parts[part]
  const index = Math.floor(text.length / 2)
  parts[part] = text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1)
  return parts.join('.')
}

describe('GET /reservation/manage', () => {
  it('shows the reservation with a cancel button and changes nothing', async () => {
    const w = await world()
    const shown = await w.page('GET')
    expect(shown.status).toBe(200)
    expectPageHeaders(shown.headers)
    expect(shown.html).toContain('ご予約内容の確認')
    expect(shown.html).toContain(w.record.id)
    expect(shown.html).toContain('京焼 Kiyomizu 抹茶碗 若草')
    expect(shown.html).toContain('<dt>数量</dt><dd>2</dd>')
    expect(shown.html).toContain('2027年1月20日')
    expect(shown.html).toContain('<form method="post" action="/reservation/manage?token=')
    expect(shown.html).not.toContain('manage@example.com')
    expect(await w.stored()).toEqual(w.record)
    expect(server.requests).toEqual([])
  })

  it('a fulfilled reservation: the page says it can no longer be cancelled online; POST changes nothing', async () => {
    const w = await world({ status: 'fulfilled', respondedAt: '2026-11-21T00:00:00.000Z' })
    const shown = await w.page('GET')
    expect(shown.status).toBe(200)
    expect(shown.html).toContain('オンラインではキャンセルできません')
    expect(shown.html).not.toContain('<form')
    const posted = await w.page('POST')
    expect(posted.status).toBe(409)
    expect(posted.html).toContain('オンラインではキャンセルできません')
    expect((await w.stored())?.status).toBe('fulfilled')
  })
})

describe('POST /reservation/manage', () => {
  it('cancels a pending reservation, frees its units and tells the team chat (no personal data)', async () => {
    const w = await world()
    expect(await w.remaining()).toBe(3)
    const done = await w.page('POST')
    expect(done.status).toBe(200)
    expectPageHeaders(done.headers)
    expect(done.html).toContain('ご予約をキャンセルしました')
    const stored = await w.stored()
    expect(stored).toMatchObject({ status: 'cancelled', cancelledBy: 'customer' })
    expect(stored?.respondedAt).toBe(stored?.statusChangedAt)
    expect(await w.remaining()).toBe(5)
    const chat = server.requests.filter((request) => request.path.startsWith('/slack/reservation'))
    expect(chat).toHaveLength(1)
    const text = chat[0].json.blocks[0].text.text as string
    expect(text).toContain('お客様が予約をキャンセルしました')
    expect(text).toContain(w.record.id)
    expect(text).toContain('数量: 2')
    expect(text).not.toContain('manage@example.com')
    // why: the customer gets a receipt of their own cancel, as of a cancel by staff
    const mails = server.requests.filter((request) => request.path.startsWith('/emails'))
    expect(mails.map((mail) => [mail.json.to, mail.json.subject])).toEqual([
      ['manage@example.com', '【ご予約キャンセル受付】京焼 Kiyomizu 抹茶碗 若草'],
    ])
    expect(mails[0].json.text).toContain('ご予約のキャンセルを承りました')
    expect(mails[0].json.text).toContain(`予約番号: ${w.record.id}`)
    expect(mails[0].headers['idempotency-key']).toBe(
      `reservation-status/${w.record.id}/cancelled/${stored?.statusChangedAt}`,
    )
    expect(done.html).toContain('キャンセルの受付メールをお送りしました')
  })

  it('cancels a confirmed one too', async () => {
    const w = await world({ status: 'confirmed', respondedAt: '2026-11-21T00:00:00.000Z' })
    expect((await w.page('POST')).status).toBe(200)
    expect((await w.stored())?.status).toBe('cancelled')
  })

  it('replay: the same link again shows it cancelled; after staff restore it, the link cancels nothing', async () => {
    const w = await world()
    expect((await w.page('POST')).status).toBe(200)
    const again = await w.page('POST')
    expect(again.status).toBe(200)
    expect(again.html).toContain('すでにキャンセルされています')
    expect((await w.setStatus('pending')).status).toBe(200)
    const replayed = await w.page('POST')
    expect(replayed.status).toBe(409)
    expect(replayed.html).toContain('このリンクはすでに使用されました')
    expect((await w.stored())?.status).toBe('pending')
    expect(await w.remaining()).toBe(3)
    // a new link (a later e-mail) still works
    const fresh = createManageToken(w.record, SECRET, Date.now())
    expect((await w.page('POST', fresh)).status).toBe(200)
    expect((await w.stored())?.status).toBe('cancelled')
  })
})

describe('the shop on every page', () => {
  const SHOP = { SHOP_NAME: '株式会社テスト商店', SHOP_CONTACT: 'help@shop.example.test' }
  beforeEach(() => {
    Object.assign(process.env, SHOP, { STOREFRONT_URL: 'https://store.example.test/' })
  })
  afterAll(() => {
    for (const name of [...Object.keys(SHOP), 'STOREFRONT_URL']) delete process.env[name]
  })

  it('the page, the done page and the error pages name the shop, its contact and link to the storefront', async () => {
    const w = await world()
    const pages = [
      await w.page('GET'),
      await w.page('POST'),
      await w.page('GET', tampered(w.token, 1)),
      await w.page('GET', 'garbled'),
    ]
    expect(pages.map((page) => page.status)).toEqual([200, 200, 403, 400])
    for (const { html } of pages) {
      expect(html).toContain('<footer>')
      expect(html).toContain('株式会社テスト商店')
      expect(html).toContain('<a href="mailto:help@shop.example.test">help@shop.example.test</a>')
      expect(html).toContain('<a href="https://store.example.test/">ショップのトップページへ</a>')
    }
  })
})

describe('links that must not work', () => {
  it('a tampered payload or signature: 403 page, nothing changed', async () => {
    const w = await world()
    for (const link of [tampered(w.token, 0), tampered(w.token, 1)]) {
      for (const method of ['GET', 'POST'] as const) {
        const answer = await w.page(method, link)
        expect(answer.status).toBe(403)
        expectPageHeaders(answer.headers)
        expect(answer.html).toContain('このリンクは使用できません')
      }
    }
    expect(await w.stored()).toEqual(w.record)
  })

  it('a foreign token (signed with another secret) or one naming another reservation: 403', async () => {
    const w = await world()
    const foreign = createManageToken(w.record, 'another-shops-secret', Date.now())
    expect((await w.page('POST', foreign)).status).toBe(403)
    const [payload] = createManageToken(
      { id: 'res_someone-else', productSlug: PRODUCT },
      'another-shops-secret',
      Date.now(),
    ).split('.')
    const spliced = `${payload}.${w.token.split('.')[1]}`
    expect((await w.page('POST', spliced)).status).toBe(403)
    expect(await w.stored()).toEqual(w.record)
  })

  it('a garbled or missing token: 400 page', async () => {
    const w = await world()
    for (const link of ['', 'abc', `${w.token}.x`, w.token.slice(0, 20)]) {
      const answer = await w.page('GET', link)
      expect(answer.status).toBe(400)
      expect(answer.html).toContain('リンクが正しくありません')
    }
  })

  it('expiry: a link works until MANAGE_LINK_LIFETIME_MS after it was made, then 403 (clock passed in)', async () => {
    const w = await world()
    const madeAt = Date.parse('2026-11-20T00:00:00.000Z')
    const link = createManageToken(w.record, SECRET, madeAt)
    const lastMoment = madeAt + MANAGE_LINK_LIFETIME_MS - 1
    const expired = madeAt + MANAGE_LINK_LIFETIME_MS
    expect(verifyManageToken(link, SECRET, lastMoment).ok).toBe(true)
    expect(verifyManageToken(link, SECRET, expired)).toEqual({ ok: false, reason: 'expired' })
    const request = (method: string) =>
      new Request(`${BASE}/reservation/manage?token=${encodeURIComponent(link)}`, { method })
    const servicesAt = (at: number) =>
      openServices(
        fakeContext({ deployContext: `manage-${process.pid}-${worlds}` }),
        loadConfig(process.env),
        createLogger('manage-expiry-test'),
        { now: () => at },
      )
    const shown = await answerManage({
      req: request('GET'),
      form: {},
      services: servicesAt(lastMoment),
    })
    expect(shown.status).toBe(200)
    await expect(
      answerManage({ req: request('POST'), form: {}, services: servicesAt(expired) }),
    ).rejects.toBeInstanceOf(InvalidSignatureError)
    expect(await w.stored()).toEqual(w.record)
  })

  it('constant-time compare: signatures differing in the first or the last character, or of another length, are refused alike', () => {
    const now = Date.now()
    const link = createManageToken({ id: 'res_x', productSlug: PRODUCT }, SECRET, now)
    const [payload, signature] = link.split('.')
    const flip = (char: string) => (char === 'A' ? 'B' : 'A')
    const first = `${payload}.${flip(signature[0])}${signature.slice(1)}`
    const last = `${payload}.${signature.slice(0, -1)}${flip(signature.at(-1)!)}`
    expect(verifyManageToken(first, SECRET, now)).toEqual({ ok: false, reason: 'bad-signature' })
    expect(verifyManageToken(last, SECRET, now)).toEqual({ ok: false, reason: 'bad-signature' })
    // why: timingSafeEqual throws on unequal lengths; the length is checked before it
    expect(verifyManageToken(`${link}A`, SECRET, now)).toEqual({ ok: false, reason: 'malformed' })
  })

  it('without RESERVATION_LINK_SECRET: 503 page', async () => {
    const w = await world()
    delete process.env.RESERVATION_LINK_SECRET
    const answer = await w.page('GET')
    expect(answer.status).toBe(503)
    expectPageHeaders(answer.headers)
  })
})
