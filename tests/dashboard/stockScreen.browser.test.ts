import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

const PRODUCT = 'hario-v60-dripper'
const PRODUCT_TITLE = 'HARIO V60 透過ドリッパー 02 セラミック ホワイト'
const OTHER = 'chasen-takayama'

const shop = chromiumFixture('shop')

describeInChromium('admin dashboard: the stock screen in a real browser', shop, () => {
  let page: Page
  const stockOf = async (slug: string) => {
    const answer = await shop.postJson('/api/admin/stock/list', {}, ADMIN_TOKEN)
    return (answer.body.stock as { productSlug: string }[]).find((row) => row.productSlug === slug)
  }
  const row = (slug: string) => page.locator(`tr[data-product="${slug}"]`)

  beforeAll(async () => {
    for (const email of ['a@example.jp', 'b@example.jp']) {
      const answer = await shop.postJson('/api/notify-signup', { email, productSlug: PRODUCT })
      expect(answer.status).toBe(200)
    }
    ;({ page } = await openPage(shop.browser))
    await signIn(page, shop.url, ADMIN_TOKEN)
  })

  it('lists every product with its quantity and waiting subscribers', async () => {
    await openRoute(page, '#/stock')
    await row(PRODUCT).waitFor()
    expect(await row(PRODUCT).locator('th').innerText()).toBe(
      `${PRODUCT_TITLE}\n商品コード: SKU-1001`,
    )
    expect(await row(PRODUCT).locator('td.waiting').innerText()).toBe('2 人')
    expect(await row(PRODUCT).getByRole('spinbutton').inputValue()).toBe('')
  })

  it('edits a quantity in place', async () => {
    await row(PRODUCT).getByLabel(`${PRODUCT_TITLE}の在庫数`).fill('5')
    await row(PRODUCT).getByRole('button', { name: '保存' }).click()
    await page.getByText(`「${PRODUCT_TITLE}」の在庫数を 5 にしました。`).waitFor()
    await loaded(page)
    expect(await stockOf(PRODUCT)).toMatchObject({ quantity: 5 })
    expect(await row(PRODUCT).getByRole('spinbutton').inputValue()).toBe('5')
  })

  it('imports a POS export (sku, quantity) after its preview and names the lines it could not use', async () => {
    const csv = '\uFEFFsku,quantity\r\nSKU-1001,7\r\nSKU-1002,3\r\nNO-SUCH,1\r\nSKU-1003,x\r\n'
    await page.getByLabel(/CSV を取り込む/).setInputFiles({
      name: 'pos-export.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    })
    await page.getByRole('table', { name: '取り込む内容' }).waitFor()
    expect(await stockOf(PRODUCT)).toMatchObject({ quantity: 5 })
    await page.getByRole('button', { name: 'この内容で取り込む' }).click()
    await page.getByText('2 商品の在庫数を取り込みました。').waitFor()
    const problems = await page.locator('.import-problems li').allInnerTexts()
    expect(problems).toEqual([
      '5 行目: 商品または在庫数が読み取れません',
      'SKU NO-SUCH: 該当する商品がありません',
    ])
    await loaded(page)
    expect(await stockOf(PRODUCT)).toMatchObject({ quantity: 7 })
    expect(await stockOf(OTHER)).toMatchObject({ quantity: 3 })
  })

  it("saves a product's automatic-notice settings", async () => {
    const settings = row(OTHER)
    await settings.locator('summary').click()
    await settings.getByText('在庫が 0 から増えたら自動で通知する').click()
    await settings.getByLabel('件名').fill('{product} 再入荷')
    await settings.getByLabel('本文').fill('{url} からどうぞ')
    await settings.getByLabel('在庫 1 点あたりの通知人数').fill('2')
    await settings.getByLabel('次の配信までの間隔（分）').fill('30')
    await settings.getByRole('button', { name: '自動通知を保存' }).click()
    await page.getByText(/自動通知をオンにしました/).waitFor()
    await loaded(page)
    expect(await stockOf(OTHER)).toMatchObject({
      auto: {
        enabled: true,
        emailTitle: '{product} 再入荷',
        emailBody: '{url} からどうぞ',
        perUnit: 2,
        intervalMinutes: 30,
      },
    })
    expect(await row(OTHER).locator('summary').innerText()).toContain(
      'オン（在庫 1 点につき 2 人、30 分ごと）',
    )
  })

  it('sets hold hours and shows the holds open, claimed and expired', async () => {
    const settings = row(OTHER)
    await settings.locator('summary').click()
    await settings.getByLabel('お取り置き（時間、0 はお取り置きなし）').fill('24')
    await settings.getByRole('button', { name: '自動通知を保存' }).click()
    await page.getByText(/自動通知をオンにしました/).waitFor()
    await loaded(page)
    // why: the notice of the previous save may still show; the row's new summary is the sign
    await row(OTHER).locator('summary', { hasText: '24 時間お取り置き' }).waitFor()
    expect(await stockOf(OTHER)).toMatchObject({
      auto: { holdHours: 24 },
      holds: { open: 0, claimed: 0, expired: 0 },
    })
    expect(await row(OTHER).locator('summary').innerText()).toContain(
      'オン（在庫 1 点につき 1 人、24 時間お取り置き、30 分ごと）',
    )
    expect(await row(OTHER).locator('.holds').innerText()).toBe(
      'お取り置き: 取り置き中 0 件・予約済み 0 件・期限切れ 0 件',
    )
    expect(await row(PRODUCT).locator('.holds').count()).toBe(0)
  })
})
