import { expect, it } from 'vitest'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { openShopPage, shopPage, useShopSite } from './shopSite.js'

/**
 * The widgets on a storefront that is not ours: on another origin, loaded by a plain
 * `<script src>` and by a module script, on a dark theme, two products on one page.
 */

const FIRST = 'chasen-takayama'
const SECOND = 'kyusu-tokoname'

const shop = chromiumFixture('shop')

/** The shop's page: both products, a dark theme, the script as `script` says. */
function darkPage(script: 'classic' | 'module'): string {
  return shopPage(
    shop.url,
    `<main><h1>夜のお店</h1>
<h2>茶筅</h2><shop-reserve product="${FIRST}" product-name="茶筅 高山"></shop-reserve>
<h2>急須</h2><shop-reserve product="${SECOND}" product-name="常滑の急須"></shop-reserve>
</main>`,
    { title: '夜のお店', script, style: 'body { background: #121212; color: #f0f0f0; }' },
  )
}

async function reservationsOf(productSlug: string, email: string) {
  const list = await shop.postJson('/api/admin-reservations-list', { productSlug }, ADMIN_TOKEN)
  return (list.body.reservations as { email: string }[]).filter((r) => r.email === email)
}

describeInChromium('storefront widgets on a page that is not ours', shop, () => {
  const site = useShopSite(() => ({
    '/classic': darkPage('classic'),
    '/module': darkPage('module'),
  }))

  function openShop(path: '/classic' | '/module') {
    return openShopPage(shop.browser, `${site.url}${path}`)
  }

  it.each(['/classic', '/module'] as const)(
    'renders from a %s script, names each product, and axe-core finds nothing',
    async (path) => {
      const { page, errors } = await openShop(path)
      await page.locator(`shop-reserve[product="${SECOND}"] form`).waitFor({ timeout: 10_000 })
      await page.getByRole('button', { name: '予約する（茶筅 高山）' }).waitFor()
      await page.getByRole('button', { name: '予約する（常滑の急須）' }).waitFor()
      expect(await page.getByRole('form', { name: '常滑の急須: 予約する' }).count()).toBe(1)
      expect(await axeViolations(page)).toEqual([])
      expect(errors).toEqual([])
    },
  )

  it('shows typed text on a dark host theme', async () => {
    const { page } = await openShop('/module')
    const input = page.locator(`shop-reserve[product="${FIRST}"]`).getByLabel('お名前')
    await input.fill('夜 見える')
    const colours = await input.evaluate((element) => {
      const style = getComputedStyle(element)
      return { color: style.color, background: style.backgroundColor }
    })
    expect(colours).toEqual({ color: 'rgb(26, 26, 26)', background: 'rgb(255, 255, 255)' })
  })

  it('after success: the form is gone, the focus is on the answer, nothing is sent twice', async () => {
    const { page, errors } = await openShop('/module')
    const widget = page.locator(`shop-reserve[product="${FIRST}"]`)
    await widget.getByLabel('お名前').fill('一度 だけ')
    await widget.getByLabel('メールアドレス').fill('once@example.jp')
    await widget.getByRole('button', { name: /予約する/ }).click()
    await widget.locator('[part=reference]').waitFor()
    expect(await widget.locator('form').isVisible()).toBe(false)
    expect(
      await widget.evaluate((host) => host.shadowRoot?.activeElement?.getAttribute('part')),
    ).toBe('success')
    // why: a submit calls fetch before its first await, so counting the calls made while the
    // hidden form is submitted twice shows whether anything would be sent
    const calls = await widget.locator('form').evaluate((form: HTMLFormElement) => {
      let count = 0
      const original = window.fetch
      window.fetch = (...args) => {
        count += 1
        return original(...args)
      }
      form.requestSubmit()
      form.requestSubmit()
      window.fetch = original
      return count
    })
    expect(calls).toBe(0)
    expect(await reservationsOf(FIRST, 'once@example.jp')).toHaveLength(1)
    expect(errors).toEqual([])
  })

  it('takes a full-width e-mail address (NFKC), in the widget and on the server', async () => {
    const { page } = await openShop('/module')
    const widget = page.locator(`shop-reserve[product="${SECOND}"]`)
    await widget.getByLabel('お名前').fill('全角 花子')
    await widget.getByLabel('メールアドレス').fill('ｈａｎａｋｏ＠ｅｘａｍｐｌｅ．ｊｐ')
    await widget.getByRole('button', { name: /予約する/ }).click()
    await widget.locator('[part=reference]').waitFor()
    expect(await reservationsOf(SECOND, 'hanako@example.jp')).toHaveLength(1)

    const direct = await shop.postJson('/api/reservation', {
      name: '全角 太郎',
      email: '　ＴＡＲＯ＠ＥＸＡＭＰＬＥ．ＪＰ　',
      productSlug: FIRST,
    })
    expect(direct.status).toBe(200)
    expect(await reservationsOf(FIRST, 'taro@example.jp')).toHaveLength(1)
  })
})
