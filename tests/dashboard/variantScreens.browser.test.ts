import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

/**
 * The dashboard of a shop with variants (mino-mug: 藍 ai SKU-2001, 白 shiro SKU-2002, 飴 ame
 * SKU-2003): 在庫 shows one row per variant with its SKU and edits it in place, a POS export
 * names a variant by its SKU, the lists filter by variant and name it.
 */

const MUG = 'mino-mug'
const shop = chromiumFixture('shop')

describeInChromium('admin dashboard: products with variants', shop, () => {
  let page: Page
  const stockOf = async (variant: string) => {
    const answer = await shop.postJson('/api/admin/stock/list', {}, ADMIN_TOKEN)
    return (answer.body.stock as { productSlug: string; variant?: string }[]).find(
      (row) => row.productSlug === MUG && row.variant === variant,
    )
  }
  const row = (variant: string) => page.locator(`tr[data-product="${MUG}/${variant}"]`)

  beforeAll(async () => {
    for (const [name, variant] of [
      ['藍 一郎', 'ai'],
      ['白 二郎', 'shiro'],
    ]) {
      const email = `${variant}@example.jp`
      const body = { name, email, productSlug: MUG, variant }
      expect((await shop.postJson('/api/reservation', body)).status).toBe(200)
      expect(
        (await shop.postJson('/api/notify-signup', { email, productSlug: MUG, variant })).status,
      ).toBe(200)
    }
    ;({ page } = await openPage(shop.browser))
    await signIn(page, shop.url, ADMIN_TOKEN)
  })

  it('在庫 shows one row per variant with its SKU, and edits one in place', async () => {
    await openRoute(page, '#/stock')
    await row('ai').waitFor()
    expect(await row('ai').locator('th').innerText()).toBe(
      '美濃焼 マグカップ（藍）\n商品コード: SKU-2001',
    )
    expect(await row('shiro').locator('td.waiting').innerText()).toBe('1 人')
    expect(await row('ame').locator('td.waiting').innerText()).toBe('0 人')
    expect(await axeViolations(page)).toEqual([])

    await row('ame').getByLabel('美濃焼 マグカップ（飴）の在庫数').fill('4')
    await row('ame').getByRole('button', { name: '保存' }).click()
    await page.getByText('「美濃焼 マグカップ（飴）」の在庫数を 4 にしました。').waitFor()
    await loaded(page)
    expect(await stockOf('ame')).toMatchObject({ quantity: 4 })
    expect(await stockOf('ai')).toMatchObject({ quantity: null })
  })

  it('a POS export names a variant by its SKU', async () => {
    const csv = 'sku,quantity\r\nSKU-2002,6\r\n'
    await page.getByLabel(/CSV を取り込む/).setInputFiles({
      name: 'pos-export.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    })
    const preview = page.getByRole('table', { name: '取り込む内容' })
    await preview.waitFor()
    expect(await preview.innerText()).toContain('美濃焼 マグカップ（白）')
    await page.getByRole('button', { name: 'この内容で取り込む' }).click()
    await page.getByText(/在庫数を取り込みました/).waitFor()
    await loaded(page)
    expect(await stockOf('shiro')).toMatchObject({ quantity: 6 })
  })

  it('the reservation list filters by variant and names it', async () => {
    await openRoute(page, '#/reservations')
    await page.getByLabel('商品').selectOption(`${MUG}/ai`)
    await loaded(page)
    const main = page.locator('main')
    await main.getByText('藍 一郎').waitFor()
    expect(await main.getByText('白 二郎').count()).toBe(0)
    expect(await main.innerText()).toContain('美濃焼 マグカップ（藍）')
    await page.getByLabel('商品').selectOption(MUG)
    await loaded(page)
    await main.getByText('白 二郎').waitFor()
    expect(await axeViolations(page)).toEqual([])
  })
})
