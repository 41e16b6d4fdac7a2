import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startLineStandIn, type LineStandIn } from '../../platform/lineStandIn.js'
import { createHoldToken } from '../../src/lib/restock/holdLink.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { holdIdFor, holdsOf, withHoldsOpened } from '../../src/lib/storage/restockHolds.js'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { withDevServerBlobs } from '../helpers/seedDevServer.js'
import { sharedService, UNSUBSCRIBE_SECRET } from '../helpers/sharedService.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { seedLineSubscriber } from '../line/lineTestKit.js'
import { seedSubscription } from '../restock/restockTestKit.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

/**
 * The dashboard and the hold page of a shop with LINE (the `line` profile, its LINE addresses
 * answered by the LINE stand-in), in Chromium: the 在庫 screen shows this month's LINE messages
 * and what is left; the send form counts the LINE sign-ups and warns before a send that would
 * pass the month's quota; the お取り置き page tells a LINE shopper that the confirmation comes in
 * LINE, or, when LINE says they are not a friend, that it cannot; such a reservation says so on
 * the reservation list and its CSV; a notice sent without an e-mail provider whose LINE pushes still run
 * shows, in its history row and its progress panel, every recipient, the e-mail ones settled.
 * axe-core finds nothing on each, light and dark.
 */

const PRODUCT = 'hario-v60-dripper'
/** The product of a LINE delivery seeded as running: 1 e-mail recipient recorded, 2 LINE ones to push. */
const RUNNING_PRODUCT = 'kalita-wave-server'
const RUNNING_TITLE = 'LINE で再入荷のお知らせ'
const shop = chromiumFixture('line')
const SLOW = { timeout: 30_000 }

/** A LINE sign-up of PRODUCT, with what LINE said of the friendship and a unit held for it. */
interface LineShopper {
  lineUserId: string
  token: string
}

/** axe-core finds nothing with the browser in the light and in the dark colour scheme. */
async function expectReadable(page: Page): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await axeViolations(page), colorScheme).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

describeInChromium('a shop with LINE: quota, the send warning, the hold page', shop, () => {
  let line: LineStandIn
  let friend: LineShopper
  let stranger: LineShopper

  beforeAll(async () => {
    // why: the profile points LINE at this port; the stand-in answers there for this file
    const { resendPort } = await sharedService('line')
    line = await startLineStandIn({
      loginChannelId: '1657000003',
      loginChannelSecret: 'line-login-secret-for-tests',
      port: resendPort,
    })
    line.quota = { limit: 10, usage: 9 }
    await withDevServerBlobs(shop.root, async (context) => {
      const repositories = openRepositories(context)
      await seedSubscription(repositories, { productSlug: PRODUCT, email: 'mail@example.jp' })
      const seeded: LineShopper[] = []
      for (const isFriend of [true, false]) {
        const subscription = await seedLineSubscriber(repositories, PRODUCT, isFriend)
        const lineUserId = subscription.lineUserId!
        // why: as a wave's delivery leaves a unit held for the sign-up it just pushed to
        const notificationId = 'ntf-line-hold'
        const hold = { subscriptionId: subscription.id, notificationId, hours: 24 }
        const { after } = await repositories.stock.change({ productSlug: PRODUCT }, (current) =>
          withHoldsOpened({ ...current, quantity: 2 }, [hold], Date.now()),
        )
        const holdId = holdIdFor(notificationId, subscription.id)
        const endsAt = holdsOf(after)[holdId].endsAt!
        const token = createHoldToken(
          { holdId, target: { productSlug: PRODUCT } },
          Date.parse(endsAt),
          UNSUBSCRIBE_SECRET,
        )
        seeded.push({ lineUserId, token })
      }
      ;[friend, stranger] = seeded
      // why: as a send without an e-mail provider leaves it when its LINE pushes have not begun
      const notificationId = `notif_${crypto.randomUUID()}`
      const timestamp = new Date().toISOString()
      const content = { productSlug: RUNNING_PRODUCT, emailTitle: RUNNING_TITLE, emailBody: '入荷' }
      await repositories.deliveries.saveJob({
        notificationId,
        ...content,
        recipients: ['a', 'b'].map((name) => ({
          subscriptionId: `ntf_1-${name}`,
          email: '',
          lineUserId: `U${name.repeat(32)}`,
        })),
        recordedCount: 1,
        createdAt: timestamp,
      })
      await repositories.history.create(
        { id: notificationId },
        {
          id: notificationId,
          ...content,
          recipientEmails: ['recorded@example.jp', '', ''],
          sentCount: 3,
          timestamp,
          status: 'sent',
          deliveryState: 'delivering',
          deliveryMode: 'record-only',
          failedRecipients: [],
          recordedCount: 1,
        },
      )
    })
  })
  afterAll(async () => {
    await line?.close()
  })

  it('在庫 shows the month’s LINE messages; the send form warns before passing what is left', async () => {
    const { page, problems } = await openPage(shop.browser)
    await signIn(page, shop.url, ADMIN_TOKEN)
    await openRoute(page, '#/stock')
    const quota = page.locator('.line-quota')
    await quota.waitFor(SLOW)
    expect(await quota.innerText()).toBe('LINE の今月の送信数: 9 / 10 通（残り 1 通）')
    await expectReadable(page)

    await openRoute(page, '#/notices')
    await page.getByLabel('商品').selectOption(PRODUCT)
    const info = page.locator('.recipients')
    await expect.poll(() => info.innerText(), SLOW).toContain('送信対象: 3 人')
    const text = await info.innerText()
    expect(text).toContain('うち LINE 2 人。LINE の今月の送信数: 9 / 10 通（残り 1 通）。')
    expect(text).toContain(
      'LINE で受け取る 2 人のうち、今月の残り送信数（1 通）を超える 1 人には送れず、失敗として記録されます。',
    )
    await expectReadable(page)
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [] })
  })

  it('the hold page tells a LINE shopper the confirmation comes in LINE, and pushes it', async () => {
    const { page } = await openPage(shop.browser)
    await page.goto(`${shop.url}/reservation/hold?token=${encodeURIComponent(friend.token)}`)
    await page.getByRole('heading', { name: 'お取り置き中の商品' }).waitFor()
    expect(await page.textContent('body')).toContain('ご連絡はLINEでお送りします。')
    expect(await page.textContent('body')).not.toContain('メールアドレス')
    await expectReadable(page)
    await page.getByLabel('お名前').fill('LINE 花子')
    await page.getByRole('button', { name: 'この商品を予約する' }).click()
    await page.getByRole('heading', { name: 'ご予約を承りました' }).waitFor()
    expect(await page.textContent('body')).toContain('確認のメッセージをLINEでお送りしました。')
    await expectReadable(page)
    await expect.poll(() => line.pushes.map(({ to }) => to), SLOW).toEqual([friend.lineUserId])
  })

  it('a shopper LINE says is not a friend is told so; staff see the message did not arrive', async () => {
    const { page } = await openPage(shop.browser)
    await page.goto(`${shop.url}/reservation/hold?token=${encodeURIComponent(stranger.token)}`)
    await page.getByRole('heading', { name: 'お取り置き中の商品' }).waitFor()
    expect(await page.textContent('body')).toContain(
      '友だち追加されていないため、このままでは届きません。',
    )
    await expectReadable(page)
    await page.getByLabel('お名前').fill('LINE 太郎')
    await page.getByRole('button', { name: 'この商品を予約する' }).click()
    await page.getByRole('heading', { name: 'ご予約を承りました' }).waitFor()
    expect(await page.textContent('body')).toContain('確認のメッセージはお送りできません。')
    await expectReadable(page)
    // why: the note is written by the request's background work, after the page was answered
    const noted = async () => {
      const answer = await shop.postJson('/api/admin-reservations-list', {}, ADMIN_TOKEN)
      const rows = answer.body.reservations as { name: string; lineDelivery?: unknown }[]
      return rows.find((row) => row.name === 'LINE 太郎')?.lineDelivery ?? null
    }
    await expect.poll(noted, SLOW).toMatchObject({ status: 'not-friend' })
    expect(line.pushes.map(({ to }) => to)).not.toContain(stranger.lineUserId)

    const staff = (await openPage(shop.browser)).page
    await signIn(staff, shop.url, ADMIN_TOKEN)
    await openRoute(staff, '#/reservations')
    await loaded(staff)
    const row = staff.getByRole('row').filter({ hasText: 'LINE 太郎' })
    expect(await row.innerText()).toContain('LINEで届いていません（友だち追加されていません）')
    expect(await staff.getByRole('row').filter({ hasText: 'LINE 花子' }).innerText()).not.toContain(
      '届いていません',
    )
    await expectReadable(staff)
    // the CSV says it as the row does, in its last column
    const [download] = await Promise.all([
      staff.waitForEvent('download'),
      staff.getByRole('button', { name: 'CSV を書き出す' }).click(),
    ])
    const rows = (await readFile((await download.path())!, 'utf8')).split('\r\n')
    expect(rows[0]).toMatch(/,LINE配信状況$/)
    const lastCell = (name: string) =>
      rows
        .find((row) => row.includes(`,${name},`))
        ?.split(',')
        .at(-1)
    expect(lastCell('LINE 太郎')).toMatch(
      /^LINEで届いていません（友だち追加されていません）・\d{4}\//,
    )
    expect(lastCell('LINE 花子')).toBe('')
  })

  it('a LINE delivery without e-mail shows every recipient, the e-mail ones settled, while it runs', async () => {
    const { page, problems } = await openPage(shop.browser)
    await signIn(page, shop.url, ADMIN_TOKEN)
    await openRoute(page, '#/notices')
    const row = page.locator('table.history tbody tr').filter({ hasText: RUNNING_TITLE })
    await row.waitFor(SLOW)
    const cells = async () =>
      Object.fromEntries(
        await row
          .locator('td')
          .evaluateAll((tds) =>
            tds.map((td) => [td.getAttribute('data-label'), (td as HTMLElement).innerText]),
          ),
      )
    expect(await cells()).toMatchObject({
      対象: '3',
      送信済み: '—',
      失敗: '0',
      未送信: '2',
      状態: expect.stringContaining('LINE 送信中（メールは記録のみ）'),
    })
    await row.getByRole('button', { name: '進捗を見る' }).click()
    const panel = page.locator('.progress')
    await expect.poll(() => panel.innerText(), SLOW).toContain(RUNNING_TITLE)
    const counts = Object.fromEntries(
      await panel
        .locator('dd')
        .evaluateAll((dds) =>
          dds.map((dd) => [dd.getAttribute('data-field'), (dd as HTMLElement).innerText]),
        ),
    )
    expect(counts).toEqual({
      state: 'LINE 送信中（メールは記録のみ）',
      recipients: '3 人',
      sent: '—',
      failed: '0 人',
      pending: '2 人',
    })
    const bar = panel.locator('progress')
    expect([await bar.getAttribute('value'), await bar.getAttribute('max')]).toEqual(['1', '3'])
    expect(await panel.innerText()).toContain(
      'メールは送らず記録のみ行いました。LINE で受け取る方へ送っています（残り 2 人）。',
    )
    await expectReadable(page)
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [] })
  })
})
