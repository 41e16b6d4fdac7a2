import { expect, it } from 'vitest'
import { createKeepToken } from '../../src/lib/compliance/keepToken.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium } from '../helpers/chromiumFixture.js'
import { withDevServerBlobs } from '../helpers/seedDevServer.js'
import { UNSUBSCRIBE_SECRET } from '../helpers/sharedService.js'

/**
 * The keep pages a shopper reaches from the 「引き続き入荷のお知らせを希望されますか」 e-mail, in
 * Chromium over `npm start`: the question, the done page and an error page, each with a light and
 * a dark preference: axe-core finds nothing, the text is Japanese, the button keeps the sign-up.
 */

const PRODUCT = 'chasen-takayama'
const DAY = 24 * 60 * 60 * 1000

const shop = chromiumFixture('shop')

describeInChromium('the keep pages', shop, () => {
  it('question, done and error pages: axe-core finds nothing, light and dark; the button keeps it', async () => {
    const signup = await shop.postJson('/api/notify-signup', {
      email: 'keep@example.jp',
      productSlug: PRODUCT,
    })
    expect(signup.status).toBe(200)
    const ref = { id: signup.body.subscriptionId as string, productSlug: PRODUCT }
    // why: as the daily run leaves a sign-up it asked yesterday
    const askedAt = new Date(Date.now() - DAY).toISOString()
    await withDevServerBlobs(shop.root, async (context) => {
      await openRepositories(context).subscriptions.update(ref, (current) => ({
        ...current,
        keepAskedAt: askedAt,
      }))
    })
    const token = createKeepToken(ref, askedAt, UNSUBSCRIBE_SECRET)
    const page = await (await shop.browser.newContext()).newPage()
    const found: string[] = []
    const check = async (name: string) => {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme })
        found.push(...(await axeViolations(page)).map((line) => `${name} ${colorScheme}: ${line}`))
      }
    }
    await page.goto(`${shop.url}/api/notify-keep?token=${encodeURIComponent(token)}`)
    await page.getByRole('heading', { name: '引き続き入荷のお知らせを希望されますか' }).waitFor()
    await check('question')
    await page.getByRole('button', { name: '引き続き希望する' }).click()
    await page.getByRole('heading', { name: 'ご登録を継続しました' }).waitFor()
    expect(await page.textContent('body')).toContain('ご登録を継続しました。')
    await check('done')
    // the same link again: it says it was kept before
    await page.goto(`${shop.url}/api/notify-keep?token=${encodeURIComponent(token)}`)
    expect(await page.textContent('body')).toContain('すでに継続の手続きが済んでいます')
    await page.goto(`${shop.url}/api/notify-keep?token=broken`)
    await page.getByRole('heading', { name: 'リンクが正しくありません' }).waitFor()
    await check('error')
    expect(found).toEqual([])
  })
})
