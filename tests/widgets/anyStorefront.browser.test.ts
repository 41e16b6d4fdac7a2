import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, ConsoleMessage, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createUnsubscribeToken } from '../../src/lib/compliance/unsubscribeToken.js'
import { axeViolations } from '../dashboard/axeCheck.js'
import { buildDashboard, describeInChromium } from '../dashboard/browserKit.js'
import { launchChromium } from '../../platform/chromium.js'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'

/**
 * Issue 23, defect 7: the widgets in a storefront that is not ours — on another origin, loaded by
 * a plain `<script src>` and by a module script, on a dark theme, two products on one page — and
 * the unsubscribe pages, with axe-core.
 */

const TOKEN = 'any-storefront-admin'
const SECRET = 'any-storefront-unsubscribe-secret'
const FIRST = 'chasen-takayama'
const SECOND = 'kyusu-tokoname'

let service: RunningDevServer
let shop: { url: string; close(): void }
let browser: Browser

/** The shop's page: both products, a dark theme, the script as `type` says. */
function shopPage(serviceUrl: string, type: 'classic' | 'module'): string {
  const script =
    type === 'module'
      ? `<script type="module" src="${serviceUrl}/widget/shop-widget.js"></script>`
      : `<script src="${serviceUrl}/widget/shop-widget.js"></script>`
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>夜のお店</title>
<link rel="icon" href="data:,">
<style>body { background: #121212; color: #f0f0f0; }</style>
${script}
</head><body><main><h1>夜のお店</h1>
<h2>茶筅</h2><shop-reserve product="${FIRST}" product-name="茶筅 高山"></shop-reserve>
<h2>急須</h2><shop-reserve product="${SECOND}" product-name="常滑の急須"></shop-reserve>
</main></body></html>`
}

async function startShopSite(serviceUrl: string): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    const type = req.url === '/classic' ? 'classic' : req.url === '/module' ? 'module' : null
    if (!type) return void res.writeHead(404).end()
    res
      .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      .end(shopPage(serviceUrl, type))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() }
}

async function openShop(path: '/classic' | '/module'): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext()).newPage()
  const errors: string[] = []
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(String(error)))
  await page.goto(`${shop.url}${path}`)
  return { page, errors }
}

async function reservationsOf(productSlug: string, email: string) {
  const list = await service.postJson('/api/admin-reservations-list', { productSlug }, TOKEN)
  return (list.body.reservations as { email: string }[]).filter((r) => r.email === email)
}

describeInChromium('storefront widgets in any storefront (issue 23)', () => {
  beforeAll(async () => {
    await buildDashboard()
    browser = await launchChromium()
    service = await startDevServer({ ADMIN_API_TOKEN: TOKEN, UNSUBSCRIBE_SECRET: SECRET })
    shop = await startShopSite(service.url)
  })
  afterAll(async () => {
    await browser?.close()
    shop?.close()
    await service?.stop()
  })

  it.each(['/classic', '/module'] as const)(
    'renders from a %s script, names each product, and axe-core finds nothing',
    async (path) => {
      const { page, errors } = await openShop(path)
      await page.locator(`shop-reserve[product="${SECOND}"] form`).waitFor({ timeout: 10_000 })
      await page.getByRole('button', { name: '予約する（茶筅 高山）' }).waitFor()
      await page.getByRole('button', { name: '予約する（常滑の急須）' }).waitFor()
      expect(await page.getByRole('form', { name: '常滑の急須: 予約する' }).count()).toBe(1)
      expect(await axeViolations(page)).toEqual([])
      expect(errors).toEqual([])
    },
  )

  it('shows typed text on a dark host theme', async () => {
    const { page } = await openShop('/module')
    const input = page.locator(`shop-reserve[product="${FIRST}"]`).getByLabel('お名前')
    await input.fill('夜 見える')
    const colours = await input.evaluate((element) => {
      const style = getComputedStyle(element)
      return { color: style.color, background: style.backgroundColor }
    })
    expect(colours).toEqual({ color: 'rgb(26, 26, 26)', background: 'rgb(255, 255, 255)' })
  })

  it('after success: the form is gone, the focus is on the answer, nothing is sent twice', async () => {
    const { page, errors } = await openShop('/module')
    const widget = page.locator(`shop-reserve[product="${FIRST}"]`)
    await widget.getByLabel('お名前').fill('一度 だけ')
    await widget.getByLabel('メールアドレス').fill('once@example.jp')
    await widget.getByRole('button', { name: /予約する/ }).click()
    await widget.locator('[part=reference]').waitFor()
    expect(await widget.locator('form').isVisible()).toBe(false)
    expect(
      await widget.evaluate((host) => host.shadowRoot?.activeElement?.getAttribute('part')),
    ).toBe('success')
    // why: a submit calls fetch before its first await, so counting the calls made while the
    // hidden form is submitted twice shows whether anything would be sent
    const calls = await widget.locator('form').evaluate((form: HTMLFormElement) => {
      let count = 0
      const original = window.fetch
      window.fetch = (...args) => {
        count += 1
        return original(...args)
      }
      form.requestSubmit()
      form.requestSubmit()
      window.fetch = original
      return count
    })
    expect(calls).toBe(0)
    expect(await reservationsOf(FIRST, 'once@example.jp')).toHaveLength(1)
    expect(errors).toEqual([])
  })

  it('takes a full-width e-mail address (NFKC), in the widget and on the server', async () => {
    const { page } = await openShop('/module')
    const widget = page.locator(`shop-reserve[product="${SECOND}"]`)
    await widget.getByLabel('お名前').fill('全角 花子')
    await widget.getByLabel('メールアドレス').fill('ｈａｎａｋｏ＠ｅｘａｍｐｌｅ．ｊｐ')
    await widget.getByRole('button', { name: /予約する/ }).click()
    await widget.locator('[part=reference]').waitFor()
    expect(await reservationsOf(SECOND, 'hanako@example.jp')).toHaveLength(1)

    const direct = await service.postJson('/api/reservation', {
      name: '全角 太郎',
      email: '　ＴＡＲＯ＠ＥＸＡＭＰＬＥ．ＪＰ　',
      productSlug: FIRST,
    })
    expect(direct.status).toBe(200)
    expect(await reservationsOf(FIRST, 'taro@example.jp')).toHaveLength(1)
  })

  it('unsubscribe pages (confirm, done, error) have their landmarks: axe-core finds nothing', async () => {
    const signup = await service.postJson('/api/notify-signup', {
      email: 'leave@example.jp',
      productSlug: FIRST,
    })
    expect(signup.status).toBe(200)
    const token = createUnsubscribeToken(
      { id: signup.body.subscriptionId, productSlug: FIRST },
      SECRET,
    )
    const page = await (await browser.newContext()).newPage()
    const found: string[] = []
    await page.goto(`${service.url}/api/notify-unsubscribe?token=${encodeURIComponent(token)}`)
    found.push(...(await axeViolations(page)).map((line) => `confirm: ${line}`))
    await page.getByRole('button', { name: '配信を停止する' }).click()
    await page.getByRole('heading', { name: '配信停止が完了しました' }).waitFor()
    found.push(...(await axeViolations(page)).map((line) => `done: ${line}`))
    await page.goto(`${service.url}/api/notify-unsubscribe?token=broken`)
    found.push(...(await axeViolations(page)).map((line) => `error: ${line}`))
    expect(found).toEqual([])
  })
})
