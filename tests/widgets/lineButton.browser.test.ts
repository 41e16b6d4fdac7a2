import { expect, it } from 'vitest'
import { CONSENT_WORDING } from '../../src/lib/compliance/consentWording.js'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium } from '../helpers/chromiumFixture.js'
import { openShopPage, shopPage, useShopSite } from './shopSite.js'

/**
 * 「LINEで受け取る」 of `<shop-notify>` on a shop whose service has LINE (the `line` profile), on
 * a light and a dark host: the button and its consent wording beside the e-mail form, readable
 * (axe finds nothing); a product with variants asks for the variant first; the button starts the
 * login for the product and the chosen variant.
 */

const shop = chromiumFixture('line')

const THEMES = {
  light: 'body { background: #ffffff; color: #1f2328; }',
  dark: 'body { background: #121212; color: #f0f0f0; }',
}

function linePage(theme: keyof typeof THEMES): string {
  return shopPage(
    shop.url,
    `<main><h1>LINEのあるお店</h1>
<h2>ドリッパー</h2><shop-notify product="hario-v60-dripper" product-name="ドリッパー"></shop-notify>
<h2>マグカップ</h2><shop-notify product="mino-mug" product-name="マグカップ"></shop-notify>
</main>`,
    { title: 'LINEのあるお店', style: THEMES[theme] },
  )
}

describeInChromium('「LINEで受け取る」 on a shop with LINE', shop, () => {
  const site = useShopSite(() => ({ '/light': linePage('light'), '/dark': linePage('dark') }))

  it.each(['light', 'dark'] as const)(
    'on a %s host: the button with its wording; a variant asked for first; the login started',
    async (theme) => {
      const { page } = await openShopPage(shop.browser, `${site.url}/${theme}`)
      const dripper = page.locator('shop-notify').first()
      const button = dripper.getByRole('button', { name: 'LINEで受け取る（ドリッパー）' })
      await button.waitFor({ timeout: 10_000 })
      await dripper.getByText(CONSENT_WORDING['restock-line']).waitFor()
      const mug = page.locator('shop-notify').nth(1)
      await mug.getByRole('group', { name: '種類' }).waitFor()
      expect(await axeViolations(page)).toEqual([])

      await mug.getByRole('button', { name: 'LINEで受け取る（マグカップ）' }).click()
      await mug.getByText('種類を選んでください。').waitFor()
      expect(await axeViolations(page)).toEqual([])

      await mug.getByRole('radio').first().check()
      const login = page.waitForRequest((request) => request.url().includes('/api/line/login'))
      await mug.getByRole('button', { name: 'LINEで受け取る（マグカップ）' }).click()
      const url = new URL((await login).url())
      expect(Object.fromEntries(url.searchParams)).toEqual({
        productSlug: 'mino-mug',
        variant: 'ai',
      })
    },
  )
})
