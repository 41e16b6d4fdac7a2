import { expect, it } from 'vitest'
import { createUnsubscribeToken } from '../../src/lib/compliance/unsubscribeToken.js'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium } from '../helpers/chromiumFixture.js'
import { UNSUBSCRIBE_SECRET } from '../helpers/sharedService.js'

/** The unsubscribe pages a shopper reaches from a restock e-mail, in Chromium. */

const PRODUCT = 'chasen-takayama'

const shop = chromiumFixture('shop')

describeInChromium('the unsubscribe pages', shop, () => {
  it('unsubscribe pages (confirm, done, error) have their landmarks: axe-core finds nothing', async () => {
    const signup = await shop.postJson('/api/notify-signup', {
      email: 'leave@example.jp',
      productSlug: PRODUCT,
    })
    expect(signup.status).toBe(200)
    const token = createUnsubscribeToken(
      { id: signup.body.subscriptionId, productSlug: PRODUCT },
      UNSUBSCRIBE_SECRET,
    )
    const page = await (await shop.browser.newContext()).newPage()
    const found: string[] = []
    await page.goto(`${shop.url}/api/notify-unsubscribe?token=${encodeURIComponent(token)}`)
    found.push(...(await axeViolations(page)).map((line) => `confirm: ${line}`))
    await page.getByRole('button', { name: '配信を停止する' }).click()
    await page.getByRole('heading', { name: '配信停止が完了しました' }).waitFor()
    found.push(...(await axeViolations(page)).map((line) => `done: ${line}`))
    await page.goto(`${shop.url}/api/notify-unsubscribe?token=broken`)
    found.push(...(await axeViolations(page)).map((line) => `error: ${line}`))
    expect(found).toEqual([])
  })
})
