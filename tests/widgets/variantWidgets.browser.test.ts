import { expect, it } from 'vitest'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { openShopPage, shopPage, useShopSite } from './shopSite.js'

/**
 * The widgets of products with variants on a shop's own site, on a light and a dark host: the
 * radio group 種類 with each variant's state, chosen by keyboard; an element pinned to one
 * variant (`variant="ai"`) shows no choice. Products of the sample catalogue: shop-tshirt (S, M,
 * L with a cap of 20 each, XL with a cap of 2) and mino-mug (藍 ai, 白 shiro, 飴 ame).
 */

const shop = chromiumFixture('shop')

const THEMES = {
  light: 'body { background: #ffffff; color: #1f2328; }',
  dark: 'body { background: #121212; color: #f0f0f0; }',
}

function variantPage(theme: keyof typeof THEMES): string {
  return shopPage(
    shop.url,
    `<main><h1>種類のあるお店</h1>
<h2>Tシャツ</h2><shop-reserve product="shop-tshirt" product-name="Tシャツ"></shop-reserve>
<h2>マグカップ 藍</h2><shop-notify product="mino-mug" variant="ai" product-name="マグカップ 藍"></shop-notify>
</main>`,
    { title: '種類のあるお店', style: THEMES[theme] },
  )
}

async function recordsOf(list: string, key: string, productSlug: string, email: string) {
  const answer = await shop.postJson(list, { productSlug }, ADMIN_TOKEN)
  return (answer.body[key] as { email: string; variant?: string }[]).filter(
    (record) => record.email === email,
  )
}

describeInChromium('widgets of products with variants', shop, () => {
  const site = useShopSite(() => ({ '/light': variantPage('light'), '/dark': variantPage('dark') }))

  it.each(['light', 'dark'] as const)(
    'on a %s host: a radio group of the sizes with their states, chosen by keyboard, reserved; axe finds nothing',
    async (theme) => {
      const { page, errors } = await openShopPage(shop.browser, `${site.url}/${theme}`)
      const widget = page.locator('shop-reserve')
      const group = widget.getByRole('group', { name: '種類' })
      await group.waitFor({ timeout: 10_000 })
      const radios = group.getByRole('radio')
      expect(await radios.count()).toBe(4)
      expect(await group.locator('.variant-state').allTextContents()).toEqual([
        '予約受付中',
        '予約受付中',
        '予約受付中',
        '残り2点',
      ])
      // the pinned sign-up shows no choice
      await page.locator('shop-notify').getByLabel('メールアドレス').waitFor()
      expect(await page.locator('shop-notify').getByRole('radio').count()).toBe(0)
      expect(await axeViolations(page)).toEqual([])

      // sending without a choice: the server's error shows under the group, which is invalid
      const email = `variant-${theme}@example.jp`
      await widget.getByLabel('お名前').fill('種類 選子')
      await widget.getByLabel('メールアドレス').fill(email)
      await widget.getByRole('button', { name: /予約する/ }).click()
      await widget.getByText('種類を選択してください。').waitFor()
      expect(await axeViolations(page)).toEqual([])

      // the keyboard chooses M: focus the first radio (S), then the arrow key moves to M
      await radios.first().focus()
      await page.keyboard.press('Space')
      await page.keyboard.press('ArrowDown')
      expect(await radios.nth(1).isChecked()).toBe(true)
      await widget.getByRole('button', { name: /予約する/ }).click()
      await widget.getByText('予約番号').waitFor()
      const stored = await recordsOf(
        '/api/admin-reservations-list',
        'reservations',
        'shop-tshirt',
        email,
      )
      expect(stored.map((record) => record.variant)).toEqual(['m'])
      expect(await axeViolations(page)).toEqual([])
      expect(errors.filter((error) => !error.includes('400'))).toEqual([])
    },
  )

  it('an element pinned to a variant signs up for it', async () => {
    const { page } = await openShopPage(shop.browser, `${site.url}/light`)
    const widget = page.locator('shop-notify')
    const email = 'pinned@example.jp'
    await widget.getByLabel('メールアドレス').fill(email)
    await widget.getByRole('button', { name: /知らせる/ }).click()
    await widget.getByText('登録番号').waitFor()
    const stored = await recordsOf('/api/admin-notify-list', 'subscriptions', 'mino-mug', email)
    expect(stored.map((record) => record.variant)).toEqual(['ai'])
  })

  it('a sold-out size says 在庫なし — 入荷お知らせ and offers the sign-up for that size', async () => {
    for (const email of ['xl-1@example.jp', 'xl-2@example.jp']) {
      const body = { name: '大 太郎', email, productSlug: 'shop-tshirt', variant: 'xl' }
      expect((await shop.postJson('/api/reservation', body)).status).toBe(200)
    }
    const { page } = await openShopPage(shop.browser, `${site.url}/dark`)
    const widget = page.locator('shop-reserve')
    const xl = widget.getByRole('radio', { name: /XL/ })
    await xl.waitFor({ timeout: 10_000 })
    expect(await widget.locator('.variant-state').nth(3).textContent()).toBe(
      '在庫なし — 入荷お知らせ',
    )
    await xl.check()
    const signup = widget.locator('shop-notify')
    await signup.getByLabel('メールアドレス').waitFor()
    expect(await axeViolations(page)).toEqual([])
    await signup.getByLabel('メールアドレス').fill('xl-wait@example.jp')
    await signup.getByRole('button', { name: /知らせる/ }).click()
    await signup.getByText('登録番号').waitFor()
    const stored = await recordsOf(
      '/api/admin-notify-list',
      'subscriptions',
      'shop-tshirt',
      'xl-wait@example.jp',
    )
    expect(stored.map((record) => record.variant)).toEqual(['xl'])
  })
})
