import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import type { RecordedRequest } from '../../platform/recordingServer.js'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium } from '../helpers/chromiumFixture.js'
import { openShopPage, shopPage, useShopSite } from '../widgets/shopSite.js'

/**
 * The place in the queue end to end, over `npm start` with the Resend stand-in, in Chromium: the
 * `<shop-notify>` widget on a light and a dark shop page tells the place; the sign-up e-mail's
 * 「入荷待ちの状況」 link opens the status page (light and dark), whose button unsubscribes, after
 * which the page says the wait has ended; a forged link answers the 403 page. axe-core finds
 * nothing on any of them.
 */

const PRODUCT = 'hario-v60-dripper'
const shop = chromiumFixture('mail')

const THEMES = {
  light: 'body { background: #ffffff; color: #1f2328; }',
  dark: 'body { background: #121212; color: #f0f0f0; }',
} as const

/** The welcome e-mail the stand-in received for `to`, once it has arrived. */
async function welcomeEmailTo(to: string): Promise<{ text: string }> {
  const isIt = (request: RecordedRequest) =>
    request.path === '/emails' && [request.json?.to].flat().includes(to)
  for (let attempt = 0; attempt < 100; attempt++) {
    const found = shop.resend.requests.find(isIt)
    if (found) return found.json as { text: string }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no e-mail reached ${to}`)
}

describeInChromium('the place in the queue in a real browser', shop, () => {
  const site = useShopSite(() =>
    Object.fromEntries(
      Object.entries(THEMES).map(([name, style]) => [
        `/${name}`,
        shopPage(
          shop.url,
          `<main><h1>ドリッパーのお店</h1>
<shop-notify product="${PRODUCT}" product-name="ドリッパー"></shop-notify>
</main>`,
          { title: 'ドリッパーのお店', style },
        ),
      ]),
    ),
  )

  beforeAll(async () => {
    shop.resend.reply = () => ({ status: 200, body: { id: crypto.randomUUID() } })
    // why: two shoppers signed up before, so the widget's shopper is the third
    for (const email of ['first@example.jp', 'second@example.jp']) {
      const answer = await shop.postJson('/api/notify-signup', { email, productSlug: PRODUCT })
      expect(answer.status).toBe(200)
    }
  })

  it('the widget tells the place on a light and a dark page; axe-core finds nothing', async () => {
    const found: string[] = []
    for (const [index, theme] of ['light', 'dark'].entries()) {
      const { page, errors } = await openShopPage(shop.browser, `${site.url}/${theme}`)
      const notify = page.locator('shop-notify')
      await notify.getByLabel('メールアドレス').fill(`${theme}@example.jp`)
      await notify.getByRole('button', { name: '入荷したら知らせる' }).click()
      await notify.locator('[part=reference]').waitFor()
      const place = `${3 + index} 番目（入荷待ち ${3 + index} 人）`
      await expect(notify.getByRole('status').textContent()).resolves.toContain(
        `登録しました。入荷待ちの順番は ${place}です。入荷したらメールでお知らせします。`,
      )
      found.push(...(await axeViolations(page)).map((line) => `${theme}: ${line}`))
      expect(errors).toEqual([])
      await page.context().close()
    }
    expect(found).toEqual([])
  })

  it('the e-mail links the status page; its button unsubscribes; light and dark, axe-core finds nothing; nothing scrolls sideways on a phone', async () => {
    const { text } = await welcomeEmailTo('light@example.jp')
    expect(text).toContain('入荷待ちの順番: 3 番目（入荷待ち 3 人）')
    const link = /入荷待ちの状況: (\S+)/.exec(text)?.[1]
    expect(link).toMatch(/\/notify\/status\?token=/)

    const page: Page = await (await shop.browser.newContext()).newPage()
    const found: string[] = []
    const check = async (name: string) => {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme })
        found.push(...(await axeViolations(page)).map((line) => `${name} ${colorScheme}: ${line}`))
      }
      await page.setViewportSize({ width: 375, height: 740 })
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      )
      if (sideways) found.push(`${name}: scrolls sideways on a 375 px phone`)
      await page.setViewportSize({ width: 1280, height: 800 })
    }
    await page.goto(link!)
    await page.getByRole('heading', { name: '入荷待ちの状況' }).waitFor()
    const body = await page.locator('main').innerText()
    // why: the dark page's shopper signed up after this one: four are waiting now
    expect(body).toContain('3 番目（入荷待ち 4 人）')
    expect(body).toContain('HARIO V60 透過ドリッパー 02 セラミック ホワイト')
    expect(body).not.toContain('@example.jp')
    await check('status')

    await page.getByRole('button', { name: '配信を停止する' }).click()
    await page.getByRole('heading', { name: '配信停止が完了しました' }).waitFor()
    await page.goto(link!)
    await page.getByText('配信停止の手続きが済んでいるため').waitFor()
    expect(await page.getByRole('button').count()).toBe(0)
    await check('ended')

    const forged = new URL(link!)
    const token = forged.searchParams.get('token')!
    forged.searchParams.set('token', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)
    const refused = await page.goto(forged.toString())
    expect(refused?.status()).toBe(403)
    await page.getByRole('heading', { name: 'リンクが無効です' }).waitFor()
    await check('forged')
    expect(found).toEqual([])
  })
})
