import { expect, it } from 'vitest'
import { createHoldToken } from '../../src/lib/restock/holdLink.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { holdIdFor, holdsOf, withHoldsOpened } from '../../src/lib/storage/restockHolds.js'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium } from '../helpers/chromiumFixture.js'
import { withDevServerBlobs } from '../helpers/seedDevServer.js'
import { UNSUBSCRIBE_SECRET } from '../helpers/sharedService.js'

/**
 * The お取り置き pages a shopper reaches from a restock e-mail's hold link, in Chromium over
 * `npm start`: the hold with its end and the name field, the reservation it became, and the page
 * of a forged link, each with a light and a dark preference: axe-core finds nothing, the text is
 * Japanese, the button turns the held unit into a reservation.
 */

const PRODUCT = 'mino-mug'
const VARIANT = 'ame'

const shop = chromiumFixture('shop')

describeInChromium('the hold pages', shop, () => {
  it('hold, reserved and error pages: axe-core finds nothing, light and dark; the button reserves', async () => {
    const signup = await shop.postJson('/api/notify-signup', {
      email: 'hold@example.jp',
      productSlug: PRODUCT,
      variant: VARIANT,
    })
    expect(signup.status).toBe(200)
    const subscriptionId = signup.body.subscriptionId as string
    const target = { productSlug: PRODUCT, variant: VARIANT }
    const notificationId = 'ntf-hold-page'
    // why: as a wave's delivery leaves a unit held for the sign-up it just e-mailed
    let endsAt = ''
    await withDevServerBlobs(shop.root, async (context) => {
      const { after } = await openRepositories(context).stock.change(target, (current) =>
        withHoldsOpened(
          { ...current, quantity: 1 },
          [{ subscriptionId, notificationId, hours: 24 }],
          Date.now(),
        ),
      )
      endsAt = holdsOf(after)[holdIdFor(notificationId, subscriptionId)].endsAt!
    })
    const token = createHoldToken(
      { holdId: holdIdFor(notificationId, subscriptionId), target },
      Date.parse(endsAt),
      UNSUBSCRIBE_SECRET,
    )
    const page = await (await shop.browser.newContext()).newPage()
    const found: string[] = []
    const check = async (name: string) => {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme })
        found.push(...(await axeViolations(page)).map((line) => `${name} ${colorScheme}: ${line}`))
      }
    }
    await page.goto(`${shop.url}/reservation/hold?token=${encodeURIComponent(token)}`)
    await page.getByRole('heading', { name: 'お取り置き中の商品' }).waitFor()
    expect(await page.textContent('body')).toContain('美濃焼 マグカップ（飴）')
    expect(await page.textContent('body')).toContain('（日本時間）')
    await check('hold')
    await page.getByLabel('お名前').fill('山田 花子')
    await page.getByRole('button', { name: 'この商品を予約する' }).click()
    await page.getByRole('heading', { name: 'ご予約を承りました' }).waitFor()
    expect(await page.textContent('body')).toMatch(/res_[0-9a-f-]+/)
    await check('reserved')
    // the same link again: the same reservation
    await page.goto(`${shop.url}/reservation/hold?token=${encodeURIComponent(token)}`)
    expect(await page.textContent('body')).toContain('このお取り置きはすでにご予約済みです。')
    await page.goto(`${shop.url}/reservation/hold?token=${encodeURIComponent(`${token}x`)}`)
    await page.getByRole('heading', { name: 'リンクが無効です' }).waitFor()
    await check('error')
    expect(found).toEqual([])
  })
})
