import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, ConsoleMessage, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumPath, launchChromium } from '../../platform/chromium.js'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

const MISSING = 'Chromium is missing: apt-get update && apt-get install -y chromium'
const runBrowser = chromiumPath() !== null || process.env.CI === 'true'
if (!runBrowser) console.warn(`tests/widgets skipped. ${MISSING}`)

/**
 * A shop's own site on another origin (127.0.0.1 and its own port; the service is on
 * localhost): one page with the script tag and the three elements, as the README says to paste.
 * The forms find the service from the script's origin, the search from its `endpoint`.
 */
async function startShopSite(serviceUrl: string): Promise<{ url: string; close(): void }> {
  const page = `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>よそのお店</title>
<link rel="icon" href="data:,">
<script type="module" src="${serviceUrl}/widget/shop-widget.js"></script>
</head><body>
<shop-search endpoint="${serviceUrl}/"></shop-search>
<shop-reserve product="chasen-takayama"></shop-reserve>
<shop-notify product="hario-v60-dripper"></shop-notify>
</body></html>`
  const server = http.createServer((req, res) => {
    if (req.url !== '/') return void res.writeHead(404).end()
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/`, close: () => server.close() }
}

// why: each step waits for functions that cold-start in the local emulation, on a shared machine
describe.runIf(runBrowser)(
  'storefront widgets in Chromium, on another origin',
  { timeout: 90_000 },
  () => {
    let service: RunningDevServer
    let shop: { url: string; close(): void }
    let browser: Browser
    beforeAll(async () => {
      browser = await launchChromium()
      service = await startDevServer({ ADMIN_API_TOKEN: ADMIN_TOKEN })
      shop = await startShopSite(service.url)
    })
    afterAll(async () => {
      await browser?.close()
      shop?.close()
      await service?.stop()
    })

    /** A fresh page of the shop site, with every console error and page error collected. */
    async function openShop(): Promise<{ page: Page; errors: string[] }> {
      const page = await (await browser.newContext()).newPage()
      const errors: string[] = []
      page.on('console', (message: ConsoleMessage) => {
        if (message.type() === 'error') errors.push(message.text())
      })
      page.on('pageerror', (error) => errors.push(String(error)))
      await page.goto(shop.url)
      await page.locator('shop-reserve form').waitFor()
      return { page, errors }
    }

    it('a reservation made there reaches the admin list; fields are labelled, the honeypot hidden', async () => {
      const { page, errors } = await openShop()
      const form = page.locator('shop-reserve')
      // why: role queries skip aria-hidden, so the honeypot is not among the textboxes people reach
      await expect(form.getByRole('textbox').count()).resolves.toBe(2)
      await form.getByLabel('お名前').fill('山田 花子')
      await form.getByLabel('メールアドレス').fill('Widget.Reserve@Example.com')
      await form.getByRole('button', { name: '予約する' }).click()
      const reference = form.locator('[part=reference]')
      await reference.waitFor()
      const id = await reference.textContent()
      expect(id).toMatch(/^res_/)
      await expect(form.getByRole('status').textContent()).resolves.toContain(
        'ご予約を受け付けました',
      )

      const list = await service.postJson(
        '/api/admin-reservations-list',
        { productSlug: 'chasen-takayama' },
        ADMIN_TOKEN,
      )
      expect(list.body.reservations).toEqual([
        expect.objectContaining({ id, name: '山田 花子', email: 'widget.reserve@example.com' }),
      ])
      expect(errors).toEqual([])
    })

    it('shows the server field errors under each field, and sends one reservation per submit', async () => {
      const { page, errors } = await openShop()
      const form = page.locator('shop-reserve')
      await form.getByLabel('メールアドレス').fill('not-an-email')
      await form.getByRole('button', { name: '予約する' }).click()
      await form.locator('#form-error:not(:empty)').waitFor()
      await expect(form.locator('#form-error').textContent()).resolves.toBe(
        '入力内容に誤りがあります。',
      )
      await expect(form.locator('#field-name-error').textContent()).resolves.toBe(
        'お名前を入力してください。',
      )
      await expect(form.locator('#field-email-error').textContent()).resolves.toBe(
        'メールアドレスの形式が正しくありません。',
      )
      await expect(form.getByLabel('メールアドレス').getAttribute('aria-invalid')).resolves.toBe(
        'true',
      )
      // why: the browser reports the documented 400 itself; nothing else may be logged
      expect(errors.every((text) => text.includes('status of 400'))).toBe(true)
      errors.length = 0

      await form.getByLabel('お名前').fill('二重 送信')
      await form.getByLabel('メールアドレス').fill('double-submit@example.com')
      await form.locator('form').evaluate((element: HTMLFormElement) => {
        element.requestSubmit()
        element.requestSubmit()
        element.requestSubmit()
      })
      await form.locator('[part=reference]').waitFor()
      const list = await service.postJson('/api/admin-reservations-list', {}, ADMIN_TOKEN)
      const mine = list.body.reservations.filter(
        (reservation: { email: string }) => reservation.email === 'double-submit@example.com',
      )
      expect(mine).toHaveLength(1)
      expect(errors).toEqual([])
    })

    it('a sign-up made there reaches the admin list; a repeated one says it was already made', async () => {
      const { page, errors } = await openShop()
      const notify = page.locator('shop-notify')
      await notify.getByLabel('メールアドレス').fill('widget.notify@example.com')
      await notify.getByRole('button', { name: '入荷したら知らせる' }).click()
      await notify.locator('[part=reference]').waitFor()
      const id = await notify.locator('[part=reference]').textContent()
      await expect(notify.getByRole('status').textContent()).resolves.toContain('登録しました')
      const list = await service.postJson(
        '/api/admin-notify-list',
        { productSlug: 'hario-v60-dripper' },
        ADMIN_TOKEN,
      )
      expect(list.body.subscriptions).toEqual([
        expect.objectContaining({ id, email: 'widget.notify@example.com', status: 'pending' }),
      ])

      await page.reload()
      await notify.getByLabel('メールアドレス').fill('widget.notify@example.com')
      await notify.getByRole('button', { name: '入荷したら知らせる' }).click()
      await notify.locator('[part=reference]').waitFor()
      await expect(notify.locator('[part=reference]').textContent()).resolves.toBe(id)
      await expect(notify.getByRole('status').textContent()).resolves.toContain('すでに登録済み')
      expect(errors).toEqual([])
    })

    it('recognises an earlier sign-up from another device by the age of its id', async () => {
      const earlier = await service.postJson('/api/notify-signup', {
        email: 'other-device@example.com',
        productSlug: 'hario-v60-dripper',
      })
      const { page, errors } = await openShop()
      // why: the subscription must look older than the 2-minute margin without waiting for it
      await page.clock.setSystemTime(Date.now() + 10 * 60 * 1000)
      const notify = page.locator('shop-notify')
      await notify.getByLabel('メールアドレス').fill('other-device@example.com')
      await notify.getByRole('button', { name: '入荷したら知らせる' }).click()
      await notify.locator('[part=reference]').waitFor()
      await expect(notify.locator('[part=reference]').textContent()).resolves.toBe(
        earlier.body.subscriptionId,
      )
      await expect(notify.getByRole('status').textContent()).resolves.toContain('すでに登録済み')
      expect(errors).toEqual([])
    })

    it('a bot filling every field, the hidden one too, sees a success and nothing is stored', async () => {
      const { page, errors } = await openShop()
      const form = page.locator('shop-reserve')
      await form.getByLabel('お名前').fill('ボット')
      await form.getByLabel('メールアドレス').fill('bot@example.com')
      await form.locator('input[name=website]').evaluate((input: HTMLInputElement) => {
        input.value = 'https://spam.example'
      })
      await form.getByRole('button', { name: '予約する' }).click()
      await form.locator('[part=reference]').waitFor()
      await expect(form.locator('[part=reference]').textContent()).resolves.toMatch(/^res_/)
      const list = await service.postJson('/api/admin-reservations-list', {}, ADMIN_TOKEN)
      const emails = list.body.reservations.map(
        (reservation: { email: string }) => reservation.email,
      )
      expect(emails).not.toContain('bot@example.com')
      expect(list.status).toBe(200)
      expect(errors).toEqual([])
    })

    it('the demo storefront (/demo/) renders every element without console errors', async () => {
      const page = await (await browser.newContext()).newPage()
      const errors: string[] = []
      page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
      page.on('pageerror', (error) => errors.push(String(error)))
      await page.goto(`${service.url}/demo/`)
      await page.locator('shop-notify').last().getByRole('button').waitFor()
      await expect(
        page.locator('shop-reserve').getByRole('button', { name: '予約する' }).count(),
      ).resolves.toBe(2)
      await expect(page.locator('shop-notify').getByLabel('メールアドレス').count()).resolves.toBe(
        2,
      )
      await expect(
        page.locator('shop-search').getByRole('combobox', { name: 'サイト内検索' }).count(),
      ).resolves.toBe(1)
      expect(errors).toEqual([])
    })

    it('search shows marked results as you type, linking to the pages', async () => {
      const { page, errors } = await openShop()
      const search = page.locator('shop-search')
      await search.getByRole('combobox', { name: 'サイト内検索' }).pressSequentially('入荷')
      await search.locator('[part=result]').first().waitFor()
      const marks = await search.locator('mark').allTextContents()
      expect(marks.length).toBeGreaterThan(0)
      expect(marks.every((text) => text === '入荷')).toBe(true)
      const hrefs = await search
        .locator('[part=result-link]')
        .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))
      expect(hrefs).toContain(`${shop.url}news/yoyaku-shohin-nyuka`)
      await expect(search.getByRole('status').textContent()).resolves.toMatch(
        /^「入荷」の検索結果: \d+件$/,
      )
      expect(errors).toEqual([])
    })

    it('a query holding markup runs no script and shows as text', async () => {
      const { page, errors } = await openShop()
      const search = page.locator('shop-search')
      const query =
        '<img src=x onerror="window.__widgetXss=1"><script>window.__widgetXss=2</script>入荷'
      await search.getByRole('combobox', { name: 'サイト内検索' }).fill(query)
      await search.getByRole('combobox', { name: 'サイト内検索' }).press('Enter')
      await search.locator('[part=status]:not(:empty)').waitFor()
      await expect(page.evaluate(() => (window as any).__widgetXss)).resolves.toBeUndefined()
      await expect(search.locator('img, script').count()).resolves.toBe(0)
      await expect(search.getByRole('status').textContent()).resolves.toContain('<img src=x')
      expect(errors).toEqual([])
    })
  },
)
