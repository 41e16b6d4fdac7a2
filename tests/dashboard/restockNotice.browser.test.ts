import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import type { RecordedReply, RecordedRequest } from '../../platform/recordingServer.js'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, MAIN_ROUTES, openRoute, signIn } from './dashboardPage.js'

const PRODUCT = 'hario-v60-dripper'
const PRODUCT_TITLE = 'HARIO V60 透過ドリッパー 02 セラミック ホワイト'
const REJECTED = 'bounce@example.jp'
const TITLE = 'HARIO V60 再入荷のお知らせ'
const BODY = 'お待たせしました。\n<b>本日</b>再入荷しました & 数量限定です。'

const shop = chromiumFixture('mail')

/** The Resend stand-in: the batch endpoint accepts every address but REJECTED. */
function resendReply(request: RecordedRequest): RecordedReply {
  if (!request.path.startsWith('/emails/batch')) return { status: 200, body: { id: 'single' } }
  const emails = request.json as { to: string | string[] }[]
  const rejected = (email: { to: string | string[] }) => [email.to].flat().includes(REJECTED)
  return {
    status: 200,
    body: {
      data: emails.filter((email) => !rejected(email)).map(() => ({ id: crypto.randomUUID() })),
      errors: emails.flatMap((email, index) =>
        rejected(email) ? [{ index, message: 'Invalid `to` field' }] : [],
      ),
    },
  }
}

/** Links differ per recipient and per origin; everything else must be identical. */
function withoutLinks(text: string): string {
  return (
    text
      // why: the sent product link is the counted click redirect to that page (docs/dashboard.md)
      .replace(/https?:\/\/[^\s/]+\/api\/r\?\S*?[?&]u=([^&\s]+)\S*/g, 'SITE/products/$1')
      .replace(/https?:\/\/[^\s/]+\/products\//g, 'SITE/products/')
      .replace(/https?:\/\/[^\s/]+\/api\/notify-unsubscribe\?token=\S+/g, 'UNSUBSCRIBE')
      // why: the preview shows placeholders where the server puts the shop's sender details
      // (SHOP_NAME, SHOP_ADDRESS, SHOP_CONTACT; docs/compliance.md)
      .replace(/^(送信者|所在地|お問い合わせ・苦情の窓口): .*$/gm, '$1: SENDER')
      .replace(/\n※ 送信者情報が未設定です.*$/gm, '')
  )
}

describeInChromium('admin dashboard: restock notices in a real browser', shop, () => {
  let page: Page

  beforeAll(async () => {
    shop.resend.reply = resendReply
    const emails = [REJECTED, ...Array.from({ length: 11 }, (_, i) => `fan${i}@example.jp`)]
    for (const email of emails) {
      const answer = await shop.postJson('/api/notify-signup', { email, productSlug: PRODUCT })
      expect(answer.status).toBe(200)
    }
    ;({ page } = await openPage(shop.browser))
    await signIn(page, shop.url, ADMIN_TOKEN)
  })

  it('previews the e-mail with the delivery template and counts the recipients', async () => {
    await openRoute(page, '#/notices')
    await page.getByLabel('商品').selectOption(PRODUCT)
    await loaded(page)
    await page.getByText('送信対象: 12 人（通知を待っている購読者）。').waitFor()
    expect(await page.getByRole('button', { name: '送信内容を確認' }).isDisabled()).toBe(true)
    await page.getByLabel('件名').fill(TITLE)
    await page.getByLabel('本文').fill(BODY)
    const frame = page.frameLocator('iframe.preview-frame')
    const previewBody = await frame.locator('body').innerText()
    expect(previewBody).toContain('<b>本日</b>再入荷しました & 数量限定です。')
    expect(previewBody).toContain(`このメールは「${PRODUCT_TITLE}」の再入荷通知`)
    expect(await frame.locator('b').count()).toBe(0)
    expect(await page.getByText(`件名: ${TITLE}`).count()).toBe(1)
  })

  it('sends after confirming the number of recipients and watches the progress reach done', async () => {
    await page.getByRole('button', { name: '送信内容を確認' }).click()
    const dialog = page.getByRole('dialog', { name: '再入荷メールを送信しますか？' })
    expect(await dialog.innerText()).toContain(
      '購読者 12 人に「HARIO V60 再入荷のお知らせ」を送信します。',
    )
    await dialog.getByRole('button', { name: '12 人に送信する' }).click()

    const progress = page.locator('.progress')
    // why: every state the page shows on the way, in order; bounded by a number of polls (at
    // most ~25 s) so that a delivery that never ends fails here with what it showed
    const states: string[] = []
    await progress.locator('[data-field="state"]').waitFor()
    for (let poll = 0; poll < 250 && states.at(-1) !== '配信完了'; poll++) {
      const state = await progress.locator('[data-field="state"]').innerText()
      if (state !== states.at(-1)) states.push(state)
      if (state !== '配信完了') await page.waitForTimeout(100)
    }
    // the progress only moves forward: queued → delivering → done, each step possibly unseen
    expect(states.at(-1)).toBe('配信完了')
    expect(states).toEqual(
      ['待機中', '配信中', '配信完了'].filter((known) => states.includes(known)),
    )
    expect(await progress.locator('[data-field="recipients"]').innerText()).toBe('12 人')
    expect(await progress.locator('[data-field="sent"]').innerText()).toBe('11 人')
    expect(await progress.locator('[data-field="failed"]').innerText()).toBe('1 人')
    expect(await progress.locator('[data-field="pending"]').innerText()).toBe('0 人')
    expect(await progress.getByText(`${REJECTED}: Invalid \`to\` field`).count()).toBe(1)
    expect(await progress.locator('progress').getAttribute('value')).toBe('12')

    const history = page.locator('table.history tbody tr')
    await page.waitForFunction(() =>
      document
        .querySelector('table.history tbody tr td[data-label="状態"]')
        ?.textContent?.startsWith('完了'),
    )
    expect(await history.count()).toBe(1)
    const cells = await history.first().locator('td').allInnerTexts()
    expect(cells.slice(1)).toEqual([TITLE, PRODUCT_TITLE, '12', '11', '1', '0', '完了'])
    await page.getByText('送信対象: 1 人（通知を待っている購読者）。').waitFor()
  })

  it('sent exactly the previewed e-mail', async () => {
    const preview = await page.locator('.preview-text').textContent()
    const sent = shop.resend.requests
      .filter((request) => request.path.startsWith('/emails/batch'))
      .flatMap((request) => request.json as { to: string; subject: string; text: string }[])
    expect(sent).toHaveLength(12)
    expect(sent[0].subject).toBe(TITLE)
    expect(withoutLinks(sent[0].text)).toBe(withoutLinks(preview!))
  })

  it('shows the outcome in the subscription list', async () => {
    await openRoute(page, '#/subscriptions')
    await page.getByLabel('商品').selectOption(PRODUCT)
    await loaded(page)
    await page.getByLabel('ステータス', { exact: true }).selectOption('notified')
    await loaded(page)
    expect(await page.locator('tbody tr').count()).toBe(11)
    await page.getByLabel('登録番号・メール', { exact: true }).fill(REJECTED)
    expect(await page.locator('tbody tr').count()).toBe(0)
    await page.getByLabel('ステータス', { exact: true }).selectOption('')
    await loaded(page)
    const control = page.getByLabel(`ステータス: ${REJECTED}`)
    expect(await control.inputValue()).toBe('pending')
    await control.selectOption('unsubscribed')
    await page.getByRole('button', { name: `ステータスを変更: ${REJECTED}` }).click()
    await page.getByText(`${REJECTED}: ステータスを「配信停止」に変更しました。`).waitFor()
    const stored = await shop.postJson(
      '/api/admin-notify-list',
      { productSlug: PRODUCT },
      ADMIN_TOKEN,
    )
    const bounced = stored.body.subscriptions.find((s: { email: string }) => s.email === REJECTED)
    expect(bounced.status).toBe('unsubscribed')
  })

  it.each([1280, 375])('shows no console error on any view at %i px', async (width) => {
    const fresh = await openPage(shop.browser, width)
    await signIn(fresh.page, shop.url, ADMIN_TOKEN)
    for (const hash of MAIN_ROUTES) {
      await openRoute(fresh.page, hash)
    }
    await fresh.page.getByLabel('商品').selectOption(PRODUCT)
    await fresh.page.getByLabel('件名').fill(TITLE)
    await fresh.page.getByLabel('本文').fill(BODY)
    await fresh.page.frameLocator('iframe.preview-frame').locator('body').waitFor()
    await loaded(fresh.page)
    expect(fresh.problems).toEqual({ consoleErrors: [], pageErrors: [] })
    const overflow = await fresh.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBe(0)
    await fresh.page.context().close()
  })
})
