import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { MAIN_ROUTES, openRoute, signIn } from './dashboardPage.js'

/**
 * Every screen of the dashboard, with records in its lists: axe-core finds nothing at 1280 and
 * 375 px (a dialog and the sign-in page included), and nothing scrolls sideways on a phone.
 */

const PRODUCT = 'chasen-takayama'

const shop = chromiumFixture('shop')
let page: Page

async function reserve(name: string): Promise<string> {
  const email = `every-${crypto.randomUUID().slice(0, 8)}@example.jp`
  const answer = await shop.postJson('/api/reservation', { name, email, productSlug: PRODUCT })
  expect(answer.status).toBe(200)
  return answer.body.reservationId
}

describeInChromium('every dashboard screen at 1280 and 375 px', shop, () => {
  beforeAll(async () => {
    await reserve('山田 花子')
    const archived = await reserve('保管 一郎')
    const answer = await shop.postJson(
      '/api/admin/reservations/archive',
      { ids: [{ id: archived, productSlug: PRODUCT }] },
      ADMIN_TOKEN,
    )
    expect(answer.body.archivedIds).toEqual([archived])
    const signUp = await shop.postJson('/api/notify-signup', {
      email: 'every-screen@example.jp',
      productSlug: PRODUCT,
    })
    expect(signUp.status).toBe(200)
    ;({ page } = await openPage(shop.browser))
    await signIn(page, shop.url, ADMIN_TOKEN)
  })

  it('axe-core finds nothing on any screen, at 1280 and 375 px', async () => {
    const found: string[] = []
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 })
      for (const hash of MAIN_ROUTES) {
        await openRoute(page, hash)
        found.push(...(await axeViolations(page)).map((line) => `${width} ${hash}: ${line}`))
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 })
    await openRoute(page, '#/reservations')
    await page.getByLabel('ステータス: 山田 花子').selectOption('cancelled')
    await page.getByRole('button', { name: 'ステータスを変更: 山田 花子' }).click()
    await page.getByRole('dialog').waitFor()
    found.push(...(await axeViolations(page)).map((line) => `dialog: ${line}`))
    await page.keyboard.press('Escape')
    const signInPage = (await openPage(shop.browser)).page
    await signInPage.goto(`${shop.url}/admin/`)
    await signInPage.getByLabel('管理用トークン').waitFor()
    found.push(...(await axeViolations(signInPage)).map((line) => `sign-in: ${line}`))
    await signInPage.context().close()
    expect(found).toEqual([])
  })

  it('no screen scrolls sideways on a 375 px phone (在庫, 個人データ, 検索の同義語, 変更履歴 included)', async () => {
    const { page: phone } = await openPage(shop.browser, 375)
    await signIn(phone, shop.url, ADMIN_TOKEN)
    const wide: string[] = []
    for (const hash of ['#/overview', '#/notices', '#/stock', '#/people', '#/search', '#/audit']) {
      await openRoute(phone, hash)
      const width = await phone.evaluate(() => document.documentElement.scrollWidth)
      if (width > 375) wide.push(`${hash}: ${width} px`)
    }
    expect(wide).toEqual([])
    await phone.context().close()
  })
})
