import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

/**
 * The overview over `npm start` in Chromium: the statistics asked for once at sign-in; the
 * pictures of demand (the daily chart is drawn on a canvas, its table alternative holds the
 * server's numbers, the 7/30/90 toggle asks again); the search keyword tables saying when they
 * show only part of the queries; axe finds nothing at 1280 and 375 px.
 */

const PRODUCT = 'mino-yaki-mug'
// why: words no page holds, distinct per run, so each is its own query in the keyword log
const RUN = Date.now() % 100_000
const QUERIES = Array.from({ length: 22 }, (_, i) => `みつからない${RUN}ご${i}`)

const shop = chromiumFixture('shop')

async function overviewAnswer(days: number) {
  const response = await fetch(`${shop.url}/api/admin/overview`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ days }),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as {
    series: Record<string, string | number>[]
    products: { productSlug: string; reservedUnits: number }[]
  }
}

/** The daily table as text rows: `[day, reservations, signups, sent, failed, searches, zero]`. */
function dailyRows(page: Page): Promise<string[][]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('table.daily tbody tr')].map((row) =>
      [...row.children].map((cell) => cell.textContent ?? ''),
    ),
  )
}

const KEYS = ['day', 'reservations', 'signups', 'sent', 'failed', 'searches', 'zeroSearches']
const asRows = (series: Record<string, string | number>[]) =>
  [...series].reverse().map((row) => KEYS.map((key) => String(row[key])))

describeInChromium('overview: statistics, pictures of demand, search keywords', shop, () => {
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${shop.url}/api/reservation`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name: '概要 太郎',
          email: `overview${i}-${Date.now()}@example.com`,
          productSlug: PRODUCT,
        }),
      })
      expect(response.status).toBe(200)
    }
    await fetch(`${shop.url}/api/search?q=${encodeURIComponent('急須')}`)
    for (const query of QUERIES) {
      const response = await fetch(`${shop.url}/api/search?q=${encodeURIComponent(query)}`)
      expect((await response.json()).totalResults).toBe(0)
    }
  })

  it('asks for the statistics once at sign-in and shows staff no variable names', async () => {
    const { page: fresh } = await openPage(shop.browser)
    const statsCalls: string[] = []
    fresh.on('request', (request) => {
      if (request.url().endsWith('/api/admin-stats')) statsCalls.push(request.url())
    })
    await fresh.goto(`${shop.url}/admin/`)
    await fresh.getByLabel('管理用トークン').waitFor()
    const signInText = await fresh.locator('main').innerText()
    await signIn(fresh, shop.url, ADMIN_TOKEN)
    await loaded(fresh)
    expect(await fresh.locator('main').innerText()).toContain('合計 3 件（アーカイブを含む）')
    expect(statsCalls).toHaveLength(1)
    expect(signInText).not.toMatch(/[A-Z]+_[A-Z_]+/)
    await fresh.context().close()
  })

  it('the search keyword tables say when they show only part of the queries', async () => {
    const { page } = await openPage(shop.browser)
    await signIn(page, shop.url, ADMIN_TOKEN)
    const notice = page.getByText('全 22 語のうち上位 20 語を表示', { exact: false })
    // why: the keyword log is written after each search answered; the overview is read again
    // until all 22 are counted (bounded: a log that never fills fails below)
    for (let attempt = 0; attempt < 20 && (await notice.count()) === 0; attempt++) {
      await page.waitForTimeout(250)
      await openRoute(page, '#/reservations')
      await openRoute(page, '#/overview')
    }
    expect(await notice.count()).toBeGreaterThan(0)
    const main = await page.locator('main').innerText()
    const shown = QUERIES.filter((query) => main.includes(query))
    expect(shown.length).toBe(20)
    await page.context().close()
  })

  it('draws the daily chart with the server’s numbers beside it; 7/30/90 toggle; axe clean at 1280 px', async () => {
    const { page, problems } = await openPage(shop.browser, 1280)
    await signIn(page, shop.url, ADMIN_TOKEN)
    await openRoute(page, '#/overview')
    await page.locator('.chart canvas').first().waitFor()
    const thirty = await overviewAnswer(30)
    expect(
      thirty.series.reduce((sum, row) => sum + Number(row.reservations), 0),
    ).toBeGreaterThanOrEqual(3)
    expect(await dailyRows(page)).toEqual(asRows(thirty.series))
    await expect(page.getByRole('img', { name: /日別の推移のグラフ/ }).count()).resolves.toBe(1)
    const bars = page.getByRole('table', { name: /商品別の需要/ })
    const reserved = thirty.products.find((p) => p.productSlug === PRODUCT)!.reservedUnits
    await expect(bars.textContent()).resolves.toContain(`${reserved}（上限なし）`)

    for (const days of [7, 90, 30]) {
      await page.getByRole('button', { name: `${days} 日` }).click()
      await loaded(page)
      await page.waitForFunction(
        (n) => document.querySelectorAll('table.daily tbody tr').length === n,
        days,
      )
      await expect(
        page.getByRole('button', { name: `${days} 日` }).getAttribute('aria-pressed'),
      ).resolves.toBe('true')
      await page.locator('.chart canvas').first().waitFor()
      expect(await dailyRows(page)).toEqual(asRows((await overviewAnswer(days)).series))
    }
    await page.getByText('数値を表で見る').click()
    expect(await axeViolations(page)).toEqual([])
    expect(problems.pageErrors).toEqual([])
    expect(problems.consoleErrors).toEqual([])
    await page.context().close()
  })

  it('fits a phone (375 px) and stays axe clean', async () => {
    const { page, problems } = await openPage(shop.browser, 375)
    await signIn(page, shop.url, ADMIN_TOKEN)
    await openRoute(page, '#/overview')
    await page.locator('.chart canvas').first().waitFor()
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
    await page.getByText('数値を表で見る').click()
    expect(await axeViolations(page)).toEqual([])
    expect(problems.pageErrors).toEqual([])
  })
})
