import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumPath, launchChromium } from '../../platform/chromium.js'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { openPage } from '../helpers/chromiumFixture.js'
import { openRoute, signIn } from '../dashboard/dashboardPage.js'

/**
 * Pre-orders over `npm start` (netlify dev, the atomic local Blobs server, the 8-at-a-time proxy):
 * a rush of 50 reservations on a product capped at 5 units, the status e-mails the Resend
 * stand-in receives, and the `<shop-reserve>` widget in Chromium showing the units left and
 * turning into the restock sign-up once the cap is reached.
 */

const ADMIN = ADMIN_TOKEN
const PRODUCT = 'kiyomizu-matcha-chawan' // content/products: reservationLimit 5, maxPerReservation 2
const TITLE = '京焼 Kiyomizu 抹茶碗 若草'
const LIMIT_TEXT = 'この商品の予約は上限数に達しました。'
const runBrowser = chromiumPath() !== null || process.env.CI === 'true'

let server: RunningDevServer
let resend: RecordingServer

beforeAll(async () => {
  resend = await startRecordingServer()
  server = await startDevServer({
    ADMIN_API_TOKEN: ADMIN,
    RESEND_API_KEY: 're_test_key',
    RESEND_FROM_EMAIL: 'shop@example.jp',
    RESEND_BASE_URL: resend.url,
    RESERVATION_LINK_SECRET: 'e2e-manage-secret',
  })
})
afterAll(async () => {
  await server?.stop()
  await resend?.close()
})

async function availability() {
  const response = await fetch(`${server.url}/api/products/${PRODUCT}/availability`)
  return { status: response.status, headers: response.headers, body: await response.json() }
}

const emails = () => resend.requests.filter((request) => request.path.startsWith('/emails'))

describe('a capped pre-order over npm start', { timeout: 240_000 }, () => {
  let reservedIds: string[] = []

  it('50 simultaneous reservations of 1 unit for a limit of 5: exactly 5 × 200 and 45 × 409', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        server.postJson('/api/reservation', {
          name: `購入者 ${index}`,
          email: `rush-${index}@example.jp`,
          productSlug: PRODUCT,
          quantity: 1,
        }),
      ),
    )
    const statuses = answers.map((answer) => answer.status)
    const ok = answers.filter((answer) => answer.status === 200)
    const refused = answers.filter((answer) => answer.status === 409)
    console.info(
      `preorder rush: ${ok.length} × 200, ${refused.length} × 409, others ${JSON.stringify(
        statuses.filter((status) => status !== 200 && status !== 409),
      )}`,
    )
    expect(ok).toHaveLength(5)
    expect(refused).toHaveLength(45)
    for (const answer of refused) {
      expect(answer.body).toEqual({ success: false, error: LIMIT_TEXT, remaining: 0 })
    }
    reservedIds = ok.map((answer) => answer.body.reservationId as string)

    const listed = await server.postJson(
      '/api/admin-reservations-list',
      { productSlug: PRODUCT },
      ADMIN,
    )
    expect(listed.body.reservations.map((r: { id: string }) => r.id).sort()).toEqual(
      [...reservedIds].sort(),
    )
    expect(listed.body.reservations.every((r: { quantity: number }) => r.quantity === 1)).toBe(true)
    const now = await availability()
    expect(now.status).toBe(200)
    expect(now.headers.get('cache-control')).toBe('public, max-age=30')
    expect(now.body).toEqual({
      success: true,
      productSlug: PRODUCT,
      reservable: false,
      remaining: 0,
      opensAt: null,
      closesAt: null,
      releaseDate: '2027-01-20',
      lineSignup: false,
    })
    await resend.waitFor(5, 60_000)
    expect(emails().map((request) => request.json.subject)).toEqual(
      Array(5).fill(`【ご予約受付】${TITLE}`),
    )
  })

  it('confirm and cancel mail the customer once each; the cancel frees a unit', async () => {
    const [confirmedId, cancelledId] = reservedIds
    const confirm = { id: confirmedId, productSlug: PRODUCT, status: 'confirmed' }
    expect((await server.postJson('/api/admin-reservations-status', confirm, ADMIN)).status).toBe(
      200,
    )
    // the same request again (a retry): nothing applied, nothing mailed
    expect((await server.postJson('/api/admin-reservations-status', confirm, ADMIN)).status).toBe(
      200,
    )
    const cancel = { id: cancelledId, productSlug: PRODUCT, status: 'cancelled' }
    expect((await server.postJson('/api/admin-reservations-status', cancel, ADMIN)).status).toBe(
      200,
    )
    await resend.waitFor(7, 60_000)
    // why: give a wrongly repeated e-mail the time to arrive before counting
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const received = emails().map((request) => ({
      to: request.json.to,
      subject: request.json.subject,
      key: request.headers['idempotency-key'],
    }))
    console.info(
      `preorder e-mails received by the Resend stand-in:\n${JSON.stringify(received, null, 1)}`,
    )
    expect(received.slice(5)).toEqual([
      {
        to: expect.stringMatching(/^rush-\d+@example\.jp$/),
        subject: `【ご予約確定】${TITLE}`,
        key: expect.stringMatching(new RegExp(`^reservation-status/${confirmedId}/confirmed/`)),
      },
      {
        to: expect.stringMatching(/^rush-\d+@example\.jp$/),
        subject: `【ご予約キャンセル】${TITLE}`,
        key: expect.stringMatching(new RegExp(`^reservation-status/${cancelledId}/cancelled/`)),
      },
    ])
    expect((await availability()).body).toMatchObject({ reservable: true, remaining: 1 })
  })

  describe.runIf(runBrowser)('the <shop-reserve> widget in Chromium', () => {
    let browser: Browser
    let shop: { url: string; close(): void }
    beforeAll(async () => {
      browser = await launchChromium()
      shop = await startShopPage(server.url)
    })
    afterAll(async () => {
      await browser?.close()
      shop?.close()
    })

    async function openShop(): Promise<{ page: Page; errors: string[] }> {
      const page = await (await browser.newContext()).newPage()
      const errors: string[] = []
      page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
      page.on('pageerror', (error) => errors.push(String(error)))
      await page.goto(shop.url)
      return { page, errors }
    }

    it('shows the units left, takes the last one, then turns into the restock sign-up', async () => {
      const { page, errors } = await openShop()
      const widget = page.locator('shop-reserve')
      await widget.locator('[part=notice]').waitFor()
      await expect(widget.locator('[part=notice]').textContent()).resolves.toBe(
        '残り1点 / 発売予定日: 2027年1月20日',
      )
      await widget.getByLabel('お名前').fill('最後 の一人')
      await widget.getByLabel('メールアドレス').fill('last-one@example.jp')
      await expect(widget.getByLabel('数量').inputValue()).resolves.toBe('1')
      await widget.getByRole('button', { name: '予約する' }).click()
      await widget.locator('[part=reference]').waitFor()
      await expect(widget.locator('[part=reference]').textContent()).resolves.toMatch(/^res_/)
      expect(errors).toEqual([])

      const { page: later, errors: laterErrors } = await openShop()
      const full = later.locator('shop-reserve')
      await full.locator('shop-notify form').waitFor()
      await expect(full.getAttribute('state')).resolves.toBe('signup')
      await expect(full.locator('[part=notice]').first().textContent()).resolves.toContain(
        LIMIT_TEXT,
      )
      await expect(full.getByRole('button', { name: '予約する' }).count()).resolves.toBe(0)
      await full.locator('shop-notify').getByLabel('メールアドレス').fill('waiting@example.jp')
      await full.locator('shop-notify').getByRole('button', { name: '入荷したら知らせる' }).click()
      await full.locator('shop-notify [part=reference]').waitFor()
      const subscriptions = await server.postJson(
        '/api/admin-notify-list',
        { productSlug: PRODUCT },
        ADMIN,
      )
      expect(subscriptions.body.subscriptions).toEqual([
        expect.objectContaining({ email: 'waiting@example.jp', status: 'pending' }),
      ])
      expect(laterErrors).toEqual([])
    })

    it('the dashboard finds a reservation by its id and shows units and window per product', async () => {
      const { page, problems } = await openPage(browser)
      await signIn(page, server.url, ADMIN)
      await openRoute(page, '#/reservations/preorders')
      const row = page.locator(`tr[data-product="${PRODUCT}"]`)
      await expect(row.locator('td').allInnerTexts()).resolves.toEqual([
        TITLE,
        '5',
        '5',
        '0',
        '2',
        '—',
        '—',
        '2027-01-20',
        '受付中',
      ])
      await page.getByRole('searchbox', { name: '予約番号' }).fill(reservedIds[0])
      await page.getByRole('button', { name: '探す' }).click()
      const found = page.locator('.found-reservation')
      await found.waitFor()
      const text = await found.innerText()
      expect(text).toContain(reservedIds[0])
      expect(text).toContain('確定')
      expect(text).toMatch(/数量\s+1/)
      await openRoute(page, '#/reservations')
      await expect(page.getByRole('columnheader', { name: '数量' }).count()).resolves.toBe(1)
      expect(problems.consoleErrors).toEqual([])
      expect(problems.pageErrors).toEqual([])
    })
  })
})

/** A shop's page on another origin with the widget script and one `<shop-reserve>`. */
async function startShopPage(serviceUrl: string): Promise<{ url: string; close(): void }> {
  const page = `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>予約ページ</title>
<link rel="icon" href="data:,">
<script type="module" src="${serviceUrl}/widget/shop-widget.js"></script>
</head><body><shop-reserve product="${PRODUCT}"></shop-reserve></body></html>`
  const httpServer = http.createServer((req, res) => {
    if (req.url !== '/') return void res.writeHead(404).end()
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page)
  })
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve))
  const { port } = httpServer.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/`, close: () => httpServer.close() }
}
