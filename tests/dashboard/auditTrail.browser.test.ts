import { expect, it } from 'vitest'
import { createUnsubscribeToken } from '../../src/lib/compliance/unsubscribeToken.js'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { SATO_TOKEN, UNSUBSCRIBE_SECRET } from '../helpers/sharedService.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

/**
 * Who changed what, as staff read it: a named staff member's change in the record's timeline, the
 * timeline of every change kind in Japanese, and the 変更履歴 screen with its filter by person.
 */

const PRODUCT = 'hario-v60-dripper'
const RESERVED = 'kyusu-tokoname'

const shop = chromiumFixture('shop')

async function reserve(name: string, productSlug: string): Promise<string> {
  const email = `audit-${crypto.randomUUID().slice(0, 8)}@example.jp`
  const answer = await shop.postJson('/api/reservation', { name, email, productSlug })
  expect(answer.status).toBe(200)
  return answer.body.reservationId
}

describeInChromium('the audit trail in the dashboard', shop, () => {
  it('a staff member signs in with their own named token (STAFF_TOKENS) and the timeline names them', async () => {
    await reserve('田中 一郎', RESERVED)
    const { page: own } = await openPage(shop.browser)
    await signIn(own, shop.url, SATO_TOKEN)
    await loaded(own)
    expect(await own.locator('main').innerText()).toContain('合計')
    await openRoute(own, '#/reservations')
    await own.getByLabel('商品').selectOption(RESERVED)
    await loaded(own)
    await own.getByLabel('ステータス: 田中 一郎').selectOption('confirmed')
    await own.getByRole('button', { name: 'ステータスを変更: 田中 一郎' }).click()
    await own.getByText('田中 一郎: ステータスを「確定」に変更しました。').waitFor()
    // the record's timeline names who changed it
    await own.getByLabel('変更履歴: 田中 一郎').click()
    const timeline = own.getByRole('row').filter({ hasText: '田中 一郎' }).locator('.timeline li')
    await timeline.first().waitFor()
    expect(await timeline.allInnerTexts()).toEqual([
      expect.stringMatching(/ sato — ステータス変更: 「未対応」→「確定」$/),
    ])
    await own.context().close()
  })

  it('each reservation and subscription shows its timeline in Japanese: an export of personal data, a shopper’s own unsubscribe', async () => {
    const reserved = await shop.postJson('/api/reservation', {
      name: '履歴 花子',
      email: 'rireki@example.jp',
      productSlug: RESERVED,
    })
    expect(reserved.status).toBe(200)
    const exported = await shop.postJson(
      '/api/admin/people/export',
      { email: 'rireki@example.jp' },
      SATO_TOKEN,
    )
    expect(exported.status).toBe(200)
    const signedUp = await shop.postJson('/api/notify-signup', {
      email: 'leaving@example.jp',
      productSlug: RESERVED,
    })
    const token = createUnsubscribeToken(
      { id: signedUp.body.subscriptionId, productSlug: RESERVED },
      UNSUBSCRIBE_SECRET,
    )
    const left = await fetch(`${shop.url}/api/notify-unsubscribe`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
    })
    expect(left.status).toBe(200)

    const { page } = await openPage(shop.browser)
    await signIn(page, shop.url, ADMIN_TOKEN)
    const timelineOf = async (hash: string, label: string) => {
      await openRoute(page, hash)
      await page.getByLabel('商品').selectOption(RESERVED)
      await loaded(page)
      await page.getByLabel(`変更履歴: ${label}`).click()
      const items = page.getByRole('row').filter({ hasText: label }).locator('.timeline li')
      await items.first().waitFor()
      return items.allInnerTexts()
    }
    const reservation = await timelineOf('#/reservations', '履歴 花子')
    expect(reservation).toEqual([expect.stringMatching(/ sato — 個人データを書き出し$/)])
    const subscription = await timelineOf('#/subscriptions', 'leaving@example.jp')
    expect(subscription).toEqual([
      expect.stringMatching(/ お客様 — ステータス変更: 「未通知」→「配信停止」$/),
    ])
    // why: what staff read names no action, actor or field by its code name
    for (const line of [...reservation, ...subscription]) {
      expect(line).not.toMatch(/export|customer|status|unsubscribed|pending/)
    }
    await page.context().close()
  })

  it('the 変更履歴 screen lists every change with who made it, filters by person, and passes axe', async () => {
    const stock = await shop.postJson(
      '/api/admin/stock',
      { items: [{ productSlug: PRODUCT, quantity: 4 }] },
      SATO_TOKEN,
    )
    expect(stock.status).toBe(200)
    const added = await shop.postJson(
      '/api/admin/search/synonyms',
      { words: ['急須', 'きゅうす'] },
      ADMIN_TOKEN,
    )
    expect(added.status).toBe(201)
    for (const width of [1280, 375]) {
      const { page } = await openPage(shop.browser, width)
      await signIn(page, shop.url, ADMIN_TOKEN)
      await page.getByRole('link', { name: '変更履歴' }).click()
      await openRoute(page, '#/audit')
      const rows = page.locator('table.audit tbody tr')
      const texts = await rows.allInnerTexts()
      expect(texts.some((text) => /sato[\s\S]*在庫数を変更[\s\S]*不明 → 4/.test(text))).toBe(true)
      expect(
        texts.some((text) => /管理用トークン[\s\S]*同義語を追加[\s\S]*急須 \/ きゅうす/.test(text)),
      ).toBe(true)
      expect(texts.join('\n')).not.toMatch(/synonym-add|stock-|settings|ADMIN_API_TOKEN/)
      await page.getByLabel('操作した人（スタッフ名）').fill('sato')
      await page.getByRole('button', { name: '絞り込む' }).click()
      await loaded(page)
      const satoRows = await rows.allInnerTexts()
      expect(satoRows.length).toBeGreaterThan(0)
      expect(satoRows.every((text) => text.includes('sato'))).toBe(true)
      expect(await axeViolations(page)).toEqual([])
      await page.context().close()
    }
  })
})
