import { expect, it } from 'vitest'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

/**
 * A staff member's send at night (QUIET_HOURS, 21-8 JST), in Chromium: the browser's
 * clock is set to 23:00 JST of the coming night, so the dashboard asks
 * 「夜間です。今すぐ送信しますか、8:00 に予約しますか」; choosing 8:00 schedules the send
 * (`sendAt`, 08:00 JST the next morning) and e-mails nobody now.
 */

const PRODUCT = 'mino-yaki-mug'
const HOUR = 60 * 60 * 1000

const shop = chromiumFixture('mail')

/** The first 23:00 JST after `now`. */
function nextNight(now: number): number {
  const jstMidnight = Math.floor((now + 9 * HOUR) / (24 * HOUR)) * 24 * HOUR - 9 * HOUR
  const night = jstMidnight + 23 * HOUR
  return night > now ? night : night + 24 * HOUR
}

describeInChromium('admin dashboard: a send at night', shop, () => {
  it('asks now or 8:00, readable light and dark; 8:00 schedules the send for 08:00 JST', async () => {
    for (const email of ['night-a@example.jp', 'night-b@example.jp']) {
      expect(
        (await shop.postJson('/api/notify-signup', { email, productSlug: PRODUCT })).status,
      ).toBe(200)
    }
    const night = nextNight(Date.now())
    const { page } = await openPage(shop.browser)
    await page.clock.setFixedTime(new Date(night))
    // why: the shared services run with the quiet hours off (their waves go at any hour); the
    // stock list answers the window a deploy with QUIET_HOURS=21-8 answers, the rest is real
    await page.route('**/api/admin/stock/list', async (route) => {
      const response = await route.fetch()
      const json = { ...(await response.json()), quietHours: { from: 21, until: 8 } }
      await route.fulfill({ response, json })
    })
    await signIn(page, shop.url, ADMIN_TOKEN)
    await openRoute(page, '#/notices')
    await page.getByLabel('商品').selectOption(PRODUCT)
    await loaded(page)
    await page.getByLabel('件名').fill('再入荷のお知らせ')
    await page.getByLabel('本文').fill('お待たせしました。')
    const batchesBefore = shop.resend.requests.filter((r) =>
      r.path.startsWith('/emails/batch'),
    ).length
    await page.getByRole('button', { name: '送信内容を確認' }).click()
    const dialog = page.getByRole('dialog', { name: '夜間の送信' })
    await dialog.waitFor()
    expect(await dialog.innerText()).toContain('夜間です。今すぐ送信しますか、8:00 に予約しますか')
    const found: string[] = []
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      found.push(...(await axeViolations(page)).map((line) => `${colorScheme}: ${line}`))
    }
    await page.emulateMedia({ colorScheme: 'light' })
    expect(found).toEqual([])

    const sent = page.waitForResponse((response) =>
      response.url().endsWith('/api/admin/notify/send'),
    )
    await dialog.getByRole('button', { name: '8:00 に予約' }).click()
    const answer = await (await sent).json()
    expect(answer.sendAt).toBe(new Date(night + 9 * HOUR).toISOString())
    await page.getByText('に送信を予約しました。').waitFor()
    const batchesAfter = shop.resend.requests.filter((r) =>
      r.path.startsWith('/emails/batch'),
    ).length
    expect(batchesAfter).toBe(batchesBefore)
  })
})
