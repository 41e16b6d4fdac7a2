import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium } from '../../platform/chromium.js'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { axeViolations } from './axeCheck.js'
import {
  buildDashboard,
  describeInChromium,
  loaded,
  openPage,
  openRoute,
  signIn,
} from './browserKit.js'

/**
 * The overview's pictures of demand over `npm start` in Chromium: the daily chart is drawn (a
 * canvas), its table alternative holds the server's numbers, the 7/30/90 toggle asks again,
 * and axe finds nothing at 1280 and 375 px.
 */

const ADMIN = 'dashboard-overview-token'
const PRODUCT = 'mino-yaki-mug'

let server: RunningDevServer
let browser: Browser

async function overviewAnswer(days: number) {
  const response = await fetch(`${server.url}/api/admin/overview`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
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

describeInChromium('overview: pictures of demand in Chromium', () => {
  beforeAll(async () => {
    await buildDashboard()
    server = await startDevServer({ ADMIN_API_TOKEN: ADMIN })
    browser = await launchChromium()
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${server.url}/api/reservation`, {
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
    await fetch(`${server.url}/api/search?q=${encodeURIComponent('急須')}`)
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('draws the daily chart with the server’s numbers beside it; 7/30/90 toggle; axe clean at 1280 px', async () => {
    const { page, problems } = await openPage(browser, 1280)
    await signIn(page, server.url, ADMIN)
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
  })

  it('fits a phone (375 px) and stays axe clean', async () => {
    const { page, problems } = await openPage(browser, 375)
    await signIn(page, server.url, ADMIN)
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
