import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import { join } from 'node:path'
import { bounceEvent, filesHolding, signedWebhook } from '../compliance/complianceTestKit.js'
import { CONSENT_WORDING } from '../../src/lib/compliance/consentWording.js'
import {
  chromiumFixture,
  describeInChromium,
  openPage,
  type PageProblems,
} from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

const PRODUCT = 'hario-v60-dripper'
const PERSON = 'hanako-people@example.jp'
const BOUNCED = 'bounced-people@example.jp'
const WIDGET_SHOPPER = 'widget-people@example.jp'

// why: its service takes Resend's signed webhooks (RESEND_WEBHOOK_SECRET is complianceTestKit's)
const shop = chromiumFixture('shop')
let page: Page
let problems: PageProblems

async function signUp(email: string): Promise<string> {
  const answer = await shop.postJson('/api/notify-signup', { email, productSlug: PRODUCT })
  expect(answer.status).toBe(200)
  return answer.body.subscriptionId
}

async function bounce(email: string): Promise<void> {
  const signed = signedWebhook(`${shop.url}/api/resend-webhook`, bounceEvent(email))
  const response = await fetch(signed.url, {
    method: 'POST',
    headers: signed.headers,
    body: await signed.text(),
  })
  expect(response.status).toBe(200)
}

describeInChromium('admin dashboard: opt-outs and personal data in a real browser', shop, () => {
  beforeAll(async () => {
    const optedOut = await signUp('optout-people@example.jp')
    const status = await shop.postJson(
      '/api/admin-notify-status',
      { id: optedOut, productSlug: PRODUCT, status: 'unsubscribed' },
      ADMIN_TOKEN,
    )
    expect(status.body.subscription.unsubscribedAt).toEqual(expect.any(String))
    await signUp(PERSON)
    await shop.postJson('/api/reservation', {
      name: '開示 花子',
      email: PERSON,
      productSlug: PRODUCT,
    })
    await signUp(BOUNCED)
    await bounce(BOUNCED)
    ;({ page, problems } = await openPage(shop.browser))
    await signIn(page, shop.url, ADMIN_TOKEN)
  })

  it('the widgets show the consent wording beside their buttons; a widget sign-up records it as its source', async () => {
    const shopper = await shop.browser.newPage()
    await shopper.goto(`${shop.url}/demo/`)
    const notify = shopper.locator('shop-notify').first()
    const button = notify.getByRole('button', { name: '入荷したら知らせる' })
    await button.waitFor()
    const described = await button.evaluate((element) => {
      const id = element.getAttribute('aria-describedby')
      return (element.getRootNode() as ShadowRoot).getElementById(id ?? '')?.textContent
    })
    expect(described).toBe(CONSENT_WORDING['restock-notice'])
    await expect(
      shopper.locator('shop-reserve').first().getByText(CONSENT_WORDING.reservation).count(),
    ).resolves.toBe(1)
    await notify.getByLabel('メールアドレス').fill(WIDGET_SHOPPER)
    await button.click()
    await notify.getByText('登録しました').waitFor()
    await shopper.close()
    const exported = await shop.postJson(
      '/api/admin/people/export',
      { email: WIDGET_SHOPPER },
      ADMIN_TOKEN,
    )
    expect(exported.body.consents).toMatchObject([
      { kind: 'restock-notice', source: 'widget', wordingText: CONSENT_WORDING['restock-notice'] },
    ])
  })

  it('warns before setting an opted-out subscriber back to pending, and cancelling changes nothing', async () => {
    await openRoute(page, '#/subscriptions')
    const row = page.getByRole('row').filter({ hasText: 'optout-people@example.jp' })
    const control = row.getByRole('combobox')
    // why: a status is applied by the row's 変更 button, not by choosing it
    const apply = row.getByRole('button', { name: /^ステータスを変更/ })
    await control.selectOption('pending')
    await apply.click()
    const dialog = page.getByRole('dialog', { name: '配信停止済みの方です' })
    await expect(dialog.innerText()).resolves.toContain('この方は配信停止済みです')
    await dialog.getByRole('button', { name: 'キャンセル' }).click()
    // why: the choice is put back once the dialog's answer arrives, a moment after the click
    await expect.poll(() => control.inputValue()).toBe('unsubscribed')
    await control.selectOption('pending')
    await apply.click()
    await page.getByRole('button', { name: '未通知に戻す' }).click()
    await page.getByText('ステータスを「未通知」に変更しました').waitFor()
    const list = await shop.postJson(
      '/api/admin-notify-list',
      { productSlug: PRODUCT },
      ADMIN_TOKEN,
    )
    const stored = list.body.subscriptions.find(
      (s: { email: string }) => s.email === 'optout-people@example.jp',
    )
    expect(stored).toMatchObject({ status: 'pending', unsubscribedAt: expect.any(String) })
  })

  it('shows what is stored about an address, then erases it', async () => {
    await openRoute(page, '#/people')
    await page.getByLabel('メールアドレス').fill(PERSON)
    await page.getByRole('button', { name: '開示する' }).click()
    await page.getByText(`${PERSON} の保存データ`).waitFor()
    const text = await page.locator('main').innerText()
    expect(text).toContain('予約: 1 件')
    expect(text).toContain('再入荷通知の登録（アーカイブ含む）: 1 件')
    expect(text).toContain('同意の記録: 2 件')
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'JSON をダウンロード' }).click()
    expect((await download).suggestedFilename()).toBe('personal-data.json')

    await page.getByRole('button', { name: 'すべて削除する' }).click()
    await page
      .getByRole('dialog', { name: '個人データの削除' })
      .getByRole('button', { name: '削除する' })
      .click()
    await page.getByText('削除しました（予約 1 件、登録 1 件').waitFor()
    const after = await shop.postJson('/api/admin/people/export', { email: PERSON }, ADMIN_TOKEN)
    expect(after.body).toMatchObject({ reservations: [], subscriptions: [], consents: [] })
    // why: over `npm start`, the erase leaves the address in no blob, journal or snapshot
    expect(await filesHolding(join(shop.root, '.netlify/local-blobs'), PERSON)).toEqual([])
    expect(await filesHolding(join(shop.root, '.netlify/local-blobs'), BOUNCED)).not.toEqual([])
  })

  it('lists suppressed addresses and lets staff lift one', async () => {
    await openRoute(page, '#/people')
    await loaded(page)
    const row = page.getByRole('row').filter({ hasText: BOUNCED })
    await expect(row.innerText()).resolves.toContain('宛先不明（バウンス）')
    await row.getByRole('button', { name: '解除' }).click()
    await page
      .getByRole('dialog', { name: '配信停止の解除' })
      .getByRole('button', { name: '解除する' })
      .click()
    await page.getByText(`${BOUNCED} の配信停止を解除しました。`).waitFor()
    await loaded(page)
    await expect(page.getByRole('row').filter({ hasText: BOUNCED }).count()).resolves.toBe(0)
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [] })
  })
})
