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

/** A unit of the 飴 mug held for a new sign-up of `email`, as a wave's delivery leaves it; answers the hold link's token. */
async function holdFor(email: string, notificationId: string): Promise<string> {
  const signup = await shop.postJson('/api/notify-signup', {
    email,
    productSlug: PRODUCT,
    variant: VARIANT,
  })
  expect(signup.status).toBe(200)
  const subscriptionId = signup.body.subscriptionId as string
  const target = { productSlug: PRODUCT, variant: VARIANT }
  let endsAt = ''
  await withDevServerBlobs(shop.root, async (context) => {
    const { after } = await openRepositories(context).stock.change(target, (current) =>
      withHoldsOpened(
        { ...current, quantity: (current.quantity ?? 0) + 1 },
        [{ subscriptionId, notificationId, hours: 24 }],
        Date.now(),
      ),
    )
    endsAt = holdsOf(after)[holdIdFor(notificationId, subscriptionId)].endsAt!
  })
  return createHoldToken(
    { holdId: holdIdFor(notificationId, subscriptionId), target },
    Date.parse(endsAt),
    UNSUBSCRIBE_SECRET,
  )
}

describeInChromium('the hold pages', shop, () => {
  it('hold, reserved and error pages: axe-core finds nothing, light and dark; the button reserves', async () => {
    const token = await holdFor('hold@example.jp', 'ntf-hold-page')
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

  it('on a 375 px phone, by keyboard alone: nothing scrolls sideways, Tab and Enter reserve', async () => {
    const token = await holdFor('hold-phone@example.jp', 'ntf-hold-phone')
    const context = await shop.browser.newContext({ viewport: { width: 375, height: 740 } })
    const page = await context.newPage()
    const sideways = () =>
      page.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      )
    await page.goto(`${shop.url}/reservation/hold?token=${encodeURIComponent(token)}`)
    await page.getByRole('heading', { name: 'お取り置き中の商品' }).waitFor()
    expect(await sideways()).toBe(false)
    // why: the name a screen reader gives the focused control (its label, or a button's text)
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement
        if (!element || element === document.body) return ''
        const label = element.id ? document.querySelector(`label[for="${element.id}"]`) : null
        return (label ?? element).textContent ?? ''
      })
    let steps = 0
    while (!(await focused()).includes('お名前') && steps++ < 10) await page.keyboard.press('Tab')
    expect(await focused()).toContain('お名前')
    await page.keyboard.type('山田 花子')
    await page.keyboard.press('Tab')
    expect(await focused()).toContain('この商品を予約する')
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'ご予約を承りました' }).waitFor()
    expect(await sideways()).toBe(false)
    await context.close()
  })
})
