import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ConsoleMessage, Page, Request as PageRequest } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

/**
 * The storefront widgets as a shop shows them: loaded from another origin into a light page, a
 * dark page and a page that follows `prefers-color-scheme: dark`, each state (form, errors,
 * success with 予約番号 / 登録番号, completions, results with highlights, the full product turned
 * into the sign-up) checked with axe-core; and what the widgets send: one Idempotency-Key per
 * submission, kept for its retry, and only the searches a shopper settles on logged.
 */

const TOKEN = ADMIN_TOKEN
const FULL = 'kiyomizu-matcha-chawan'

interface Theme {
  css: string
  colorScheme: 'light' | 'dark'
  /** The page's background as the browser computes it (the theme really applies). */
  background: string
}

const THEMES: Record<string, Theme> = {
  light: {
    css: 'body { background: #ffffff; color: #1f2328; }',
    colorScheme: 'light',
    background: 'rgb(255, 255, 255)',
  },
  dark: {
    css: 'body { background: #121212; color: #f0f0f0; }',
    colorScheme: 'light',
    background: 'rgb(18, 18, 18)',
  },
  'prefers-color-scheme-dark': {
    css:
      ':root { color-scheme: light dark; } body { background: #ffffff; color: #1f2328; } ' +
      '@media (prefers-color-scheme: dark) { body { background: #15171a; color: #e8e8e8; } }',
    colorScheme: 'dark',
    background: 'rgb(21, 23, 26)',
  },
}

const service = chromiumFixture('doubleOptIn')
let shop: { url: string; close(): void }

function shopPage(serviceUrl: string, theme: Theme): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>テーマのお店</title>
<link rel="icon" href="data:,">
<style>${theme.css}</style>
<script src="${serviceUrl}/widget/shop-widget.js"></script>
</head><body><main><h1>テーマのお店</h1>
<h2>検索</h2><shop-search endpoint="${serviceUrl}/"></shop-search>
<h2>茶筅</h2><shop-reserve product="chasen-takayama" product-name="茶筅"></shop-reserve>
<h2>ドリッパー</h2><shop-notify product="hario-v60-dripper" product-name="ドリッパー"></shop-notify>
<h2>抹茶碗</h2><shop-reserve product="${FULL}" product-name="抹茶碗"></shop-reserve>
</main></body></html>`
}

async function startShopSite(serviceUrl: string): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    const theme = THEMES[(req.url ?? '/').slice(1)]
    if (!theme) return void res.writeHead(404).end()
    res
      .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      .end(shopPage(serviceUrl, theme))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() }
}

async function openShop(name: string): Promise<{ page: Page; errors: string[] }> {
  const theme = THEMES[name]!
  const context = await service.browser.newContext({
    colorScheme: theme.colorScheme,
    locale: 'ja-JP',
  })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('console', (message: ConsoleMessage) => {
    // why: the browser reports the documented 400 of an empty form itself
    if (message.type() === 'error' && !message.text().includes('status of 400')) {
      errors.push(message.text())
    }
  })
  page.on('pageerror', (error) => errors.push(String(error)))
  await page.goto(`${shop.url}/${name}`)
  await page.locator('shop-reserve[product="chasen-takayama"] form').waitFor()
  return { page, errors }
}

async function keywordSummary(): Promise<{
  topQueries: { query: string }[]
  zeroResultQueries: { query: string }[]
}> {
  const answer = await service.postJson(
    '/api/admin/search-keywords',
    { days: 1, limit: 100 },
    TOKEN,
  )
  expect(answer.status).toBe(200)
  return answer.body
}

describeInChromium('storefront widgets on light and dark themes', service, () => {
  beforeAll(async () => {
    shop = await startShopSite(service.url)
    // why: the capped product full (5 units), so its widget shows the sign-up state
    for (const quantity of [2, 2, 1]) {
      const reserved = await service.postJson('/api/reservation', {
        name: '満席 太郎',
        email: `full-${quantity}-${crypto.randomUUID().slice(0, 6)}@example.test`,
        productSlug: FULL,
        quantity,
      })
      expect(reserved.status).toBe(200)
    }
  })
  afterAll(() => shop?.close())

  it.each(Object.keys(THEMES))(
    'every state is readable on the %s page (axe-core)',
    async (name) => {
      const { page, errors } = await openShop(name)
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
        THEMES[name]!.background,
      )
      const found: string[] = []
      const check = async (state: string) => {
        found.push(...(await axeViolations(page)).map((line) => `${state}: ${line}`))
      }
      const full = page.locator(`shop-reserve[product="${FULL}"]`)
      await full.locator('[part=notice]').waitFor()
      await expect(full.locator('[part=notice]').textContent()).resolves.toContain(
        '上限数に達しました',
      )
      await check('forms, the full product as a sign-up')

      const reserve = page.locator('shop-reserve[product="chasen-takayama"]')
      await reserve.getByRole('button', { name: /予約する/ }).click()
      await reserve.locator('#field-name-error:not(:empty)').waitFor()
      await check('field errors')
      await reserve.getByLabel('お名前').fill('テーマ 花子')
      await reserve.getByLabel('メールアドレス').fill(`${name}@example.test`)
      await reserve.getByRole('button', { name: /予約する/ }).click()
      await reserve.locator('[part=reference]').waitFor()
      await expect(reserve.locator('[part=success]').textContent()).resolves.toContain('予約番号')
      await check('reservation success')

      const notify = page.locator('shop-notify[product-name="ドリッパー"]')
      await notify.getByLabel('メールアドレス').fill(`${name}@example.test`)
      await notify.getByRole('button', { name: /入荷したら知らせる/ }).click()
      await notify.locator('[part=reference]').waitFor()
      // why: double opt-in is on: the shopper is told to open the e-mail (confirmationRequired),
      // and that the sign-up has no place in the queue until then
      await expect(notify.locator('[part=success]').textContent()).resolves.toContain(
        '確認メールをお送りしました。メールを開き、リンクから登録を確定してください。確定すると入荷待ちの順番に加わります。',
      )
      await check('sign-up success')

      const search = page.locator('shop-search')
      const box = search.getByRole('combobox', { name: 'サイト内検索' })
      await box.pressSequentially('抹')
      await search.getByRole('option').first().waitFor()
      await box.press('ArrowDown')
      await check('completions, one chosen')
      await box.fill('入荷')
      await box.press('Enter')
      await search.locator('[part=result] mark').first().waitFor()
      await check('results with highlights')
      await box.fill('qqqzzz')
      await box.press('Enter')
      await search.getByText('「qqqzzz」に一致するページは見つかりませんでした。').waitFor()
      await check('no results')

      expect(found).toEqual([])
      expect(errors).toEqual([])
    },
  )

  it('sends one Idempotency-Key per submission and the same one when it is sent again', async () => {
    const { page } = await openShop('light')
    const sent: PageRequest[] = []
    let dropAnswer = true
    await page.route(`${service.url}/api/reservation`, async (route) => {
      sent.push(route.request())
      if (!dropAnswer) return route.continue()
      // why: the reservation is made but its answer never arrives (a dropped connection)
      dropAnswer = false
      await route.fetch()
      await route.abort('connectionreset')
    })
    const reserve = page.locator('shop-reserve[product="chasen-takayama"]')
    const email = `retry-${crypto.randomUUID().slice(0, 8)}@example.test`
    await reserve.getByLabel('お名前').fill('再送 次郎')
    await reserve.getByLabel('メールアドレス').fill(email)
    await reserve.getByRole('button', { name: /予約する/ }).click()
    await reserve.locator('#form-error:not(:empty)').waitFor()
    await reserve.getByRole('button', { name: /予約する/ }).click()
    await reserve.locator('[part=reference]').waitFor()

    const keys = await Promise.all(
      sent.map(async (request) => request.headerValue('idempotency-key')),
    )
    expect(keys).toHaveLength(2)
    expect(keys[0]).toMatch(/^[\w-]{16,}$/)
    expect(keys[1]).toBe(keys[0])
    const list = await service.postJson(
      '/api/admin-reservations-list',
      { productSlug: 'chasen-takayama' },
      TOKEN,
    )
    const mine = (list.body.reservations as { id: string; email: string }[]).filter(
      (reservation) => reservation.email === email,
    )
    expect(mine.map((reservation) => reservation.id)).toEqual([
      await reserve.locator('[part=reference]').textContent(),
    ])
  })

  it('logs the search a shopper settles on, not the half-typed ones on the way', async () => {
    const { page } = await openShop('dark')
    const search = page.locator('shop-search')
    const box = search.getByRole('combobox', { name: 'サイト内検索' })
    await box.pressSequentially('kette', { delay: 40 })
    await search.getByText('「kette」に一致するページは見つかりませんでした。').waitFor()
    await box.press('l')
    await search.getByText(/^「kettel」の検索結果: \d+件$/).waitFor()
    // why: the settle time passes after the last key; the log is written after each answer
    let summary = await keywordSummary()
    for (
      let tries = 0;
      tries < 60 && !summary.topQueries.some((q) => q.query === 'kettel');
      tries++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      summary = await keywordSummary()
    }
    expect(summary.topQueries.filter((q) => q.query.startsWith('kett'))).toEqual([
      { query: 'kettel', count: 1 },
    ])
    expect(summary.zeroResultQueries.some((q) => q.query.startsWith('kett'))).toBe(false)
  })
})
