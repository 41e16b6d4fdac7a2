import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import { axeViolations } from '../helpers/axe.js'
import {
  chromiumFixture,
  describeInChromium,
  openPage,
  type PageProblems,
} from '../helpers/chromiumFixture.js'
import { manyReservations, seedDevServerReservations } from '../helpers/seedDevServer.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

/**
 * The reservation list at 10,000 rows, paged and searched by the server; the browser holds one
 * page of 50.
 */

const PRODUCT = 'mino-yaki-mug'
const COUNT = 10_000

// why: writing 10,000 records, building their indexes and the first cold list, on two cores
// that other test files share
const SEEDING_TIMEOUT_MS = 300_000

const shop = chromiumFixture('shop')
let page: Page
let problems: PageProblems

const names = () => page.locator('tbody td[data-label="名前"]').allInnerTexts()

describeInChromium('dashboard lists at 10,000 rows', shop, () => {
  beforeAll(async () => {
    await seedDevServerReservations(shop.root, manyReservations(COUNT, PRODUCT))
    // why: the first call of a function in the local emulation loads 10,000 records cold, which
    // on a loaded machine takes longer than the sign-in's wait; the dashboard then finds them warm
    for (const path of ['/api/admin-stats', '/api/admin-reservations-list']) {
      expect((await shop.postJson(path, { pageSize: 50 }, ADMIN_TOKEN)).status).toBe(200)
    }
    ;({ page, problems } = await openPage(shop.browser))
    await signIn(page, shop.url, ADMIN_TOKEN)
    await loaded(page)
  }, SEEDING_TIMEOUT_MS)

  it('shows the first 50, newest first; 次へ and 前へ page through the server', async () => {
    await openRoute(page, '#/reservations')
    expect(await page.locator('tbody tr').count()).toBe(50)
    expect((await names()).slice(0, 2)).toEqual(['たかはし 9999', 'さとう 9998'])
    const pager = page.getByRole('navigation', { name: '予約のページ' })
    expect(await pager.innerText()).toContain(`1 / ${COUNT / 50} ページ（全 ${COUNT} 件）`)
    await pager.getByRole('button', { name: '次へ' }).click()
    await loaded(page)
    expect(await page.locator('tbody tr').count()).toBe(50)
    expect((await names())[0]).toBe('たかはし 9949')
    expect(await pager.innerText()).toContain(`2 / ${COUNT / 50} ページ`)
    // why: the focus stays on the pager button pressed, for the next press
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('次へ')
    await page.getByRole('button', { name: '前へ' }).click()
    await loaded(page)
    expect((await names())[0]).toBe('たかはし 9999')
  })

  it('finds a record by its name in katakana through the server', async () => {
    const search = page.getByLabel('予約番号・名前・メール')
    await search.fill('タカハシ 1234')
    await loaded(page)
    expect(await names()).toEqual(['たかはし 1234'])
    await search.fill('ﾀﾅｶ')
    await loaded(page)
    expect(await page.locator('tbody tr').count()).toBe(50)
    expect(await page.getByRole('navigation', { name: '予約のページ' }).innerText()).toContain(
      `全 ${COUNT / 5} 件`,
    )
    await search.fill('')
    await loaded(page)
  })

  it('says so above the list while the server answers rebuilding: true', async () => {
    const notice = page.getByText('一覧の索引を作り直しています', { exact: false })
    expect(await notice.isVisible()).toBe(false)
    // why: a rebuild of 10,000 records is over in seconds here; the answer is marked as a
    // rebuilding one would be, everything else as the server sent it
    await page.route('**/api/admin-reservations-list', async (route) => {
      const answer = await route.fetch()
      await route.fulfill({
        response: answer,
        json: { ...(await answer.json()), rebuilding: true },
      })
    })
    await page.getByRole('button', { name: '再読み込み' }).click()
    await loaded(page)
    await notice.waitFor({ state: 'visible' })
    expect(await page.locator('tbody tr').count()).toBe(50)
    expect(await axeViolations(page)).toEqual([])
    await page.unroute('**/api/admin-reservations-list')
    await page.getByRole('button', { name: '再読み込み' }).click()
    await loaded(page)
    await notice.waitFor({ state: 'hidden' })
  })

  it('axe-core finds nothing on the paged list, and the page reported no errors', async () => {
    expect(await axeViolations(page)).toEqual([])
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [] })
  })
})
