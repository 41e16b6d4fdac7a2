import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import { createConfirmationToken } from '../../src/lib/compliance/confirmationToken.js'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { UNSUBSCRIBE_SECRET } from '../helpers/sharedService.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

/**
 * Restock work staff can trust, in a real Chromium over `npm start` without an e-mail provider
 * and with double opt-in: one rule counts who is waiting and the screens say why someone is not;
 * the CSV import shows what it would change before it writes; a wave says what it did;
 * record-only sends say so everywhere; the words and the layout are for people.
 */

const ADMIN = ADMIN_TOKEN
const SECRET = UNSUBSCRIBE_SECRET
const WAIT = 'hario-v60-dripper'
const WAIT_TITLE = 'HARIO V60 透過ドリッパー 02 セラミック ホワイト'
const WAVE = 'chasen-takayama'
const WAVE_TITLE = '高山 茶筅 Takayama 百本立'
const EDIT = 'nambu-tekki-kettle'
const EDIT_TITLE = '南部鉄器 鉄瓶 Arare あられ 1.2L'
const AUTO = {
  enabled: true,
  emailTitle: '{product} 再入荷',
  emailBody: 'お待たせしました。{url}',
  perUnit: 1,
  intervalMinutes: 60,
}

const server = chromiumFixture('doubleOptIn')

const admin = async (path: string, body: unknown) => {
  const answer = await server.postJson(path, body, ADMIN)
  expect(answer.status, path).toBe(200)
  return answer.body
}

/** A sign-up, confirmed through its link unless `confirmed` is false; its id. */
async function signUp(email: string, productSlug: string, confirmed = true): Promise<string> {
  const answer = await server.postJson('/api/notify-signup', { email, productSlug })
  expect(answer.status).toBe(200)
  const id = answer.body.subscriptionId as string
  if (confirmed) {
    const token = createConfirmationToken({ id, productSlug }, Date.UTC(2099, 0, 1), SECRET)
    const response = await fetch(
      `${server.url}/api/notify-confirm?token=${encodeURIComponent(token)}`,
      { method: 'POST', headers: { Accept: 'application/json' } },
    )
    expect(response.status).toBe(200)
  }
  return id
}

async function stockOf(productSlug: string) {
  const { stock } = await admin('/api/admin/stock/list', {})
  return stock.find((row: { productSlug: string }) => row.productSlug === productSlug)
}

/** axe-core finds nothing with the browser in the light and in the dark colour scheme. */
async function expectReadable(page: Page): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await axeViolations(page), colorScheme).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** How many lines an element's text takes as drawn. */
function lineCount(page: Page, selector: string): Promise<number[]> {
  return page.evaluate((target) => {
    return [...document.querySelectorAll(target)].map((element) => {
      const range = document.createRange()
      range.selectNodeContents(element)
      const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)))
      return tops.size
    })
  }, selector)
}

async function texts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).allInnerTexts()
}

/** Polls as long as a dev server's request may take on a loaded machine. */
const SLOW = { timeout: 20_000 }

const csvFile = (text: string) => ({
  name: 'pos-export.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(`\uFEFF${text}`),
})

describeInChromium('restock work staff can trust', server, () => {
  beforeAll(async () => {
    for (const name of ['wait-1', 'wait-2', 'wait-3']) await signUp(`${name}@example.jp`, WAIT)
    await signUp('unconfirmed@example.jp', WAIT, false)
    const optedOut = await signUp('opted-out@example.jp', WAIT)
    for (const status of ['unsubscribed', 'pending']) {
      await admin('/api/admin-notify-status', { id: optedOut, productSlug: WAIT, status })
    }
    for (const name of ['wave-1', 'wave-2', 'wave-3', 'wave-4']) {
      await signUp(`${name}@example.jp`, WAVE)
    }
    for (const name of ['edit-1', 'edit-2']) await signUp(`${name}@example.jp`, EDIT)
    for (const productSlug of [WAVE, EDIT]) {
      await admin('/api/admin/notify/auto', { productSlug, ...AUTO })
      await admin('/api/admin/stock', { items: [{ productSlug, quantity: 0 }] })
    }
    for (const q of ['ちゃせん', 'ちゃせん', '新幹線 手ぬぐい', 'てつびん']) {
      await fetch(`${server.url}/api/search?q=${encodeURIComponent(q)}`)
    }
  })

  it('在庫 shows each product’s SKU, counts who is waiting by one rule and says why the others are not counted', async () => {
    expect(await stockOf(WAIT)).toMatchObject({
      waiting: 3,
      notWaiting: { optedOut: 1, unconfirmed: 1, suppressed: 0 },
    })
    for (const width of [1280, 375]) {
      const { page } = await openPage(server.browser, width)
      await signIn(page, server.url, ADMIN)
      await openRoute(page, '#/stock')
      const row = page.locator(`tr[data-product="${WAIT}"]`)
      expect(await row.locator('th').innerText()).toContain('商品コード: SKU-1001')
      expect(await page.locator('tr[data-product="kyusu-tokoname"] th').innerText()).toContain(
        '商品コード: 未設定',
      )
      expect(await row.locator('td.waiting .count').innerText()).toBe('3 人')
      const why = await row.locator('td.waiting').innerText()
      expect(why).toContain('対象外 2 人')
      expect(why).toContain('配信停止後に再登録なし 1 人')
      expect(why).toContain('未確認 1 人')
      const main = await page.locator('main').innerText()
      expect(main).not.toMatch(/productSlug|sku または|スラッグ/)
      await expectReadable(page)
      await page.context().close()
    }
  })

  it('再入荷通知 marks unconfirmed and opted-out sign-ups; the send dialog counts who is waiting and says who is left out', async () => {
    const { page } = await openPage(server.browser)
    await signIn(page, server.url, ADMIN)
    await openRoute(page, '#/subscriptions')
    await page.getByLabel('商品').selectOption(WAIT)
    await loaded(page)
    const row = (email: string) => page.getByRole('row').filter({ hasText: email })
    expect(await row('unconfirmed@example.jp').innerText()).toContain('未確認')
    expect(await row('opted-out@example.jp').innerText()).toContain('配信停止済み')
    expect(await row('wait-1@example.jp').innerText()).not.toMatch(/未確認|配信停止済み/)
    await expectReadable(page)

    await openRoute(page, '#/notices')
    await page.getByLabel('商品').selectOption(WAIT)
    const info = page.locator('.recipients')
    await expect.poll(() => info.innerText(), SLOW).toContain('送信対象: 3 人')
    expect(await info.innerText()).toContain('未確認 1 人')
    await page.getByLabel('件名').fill('HARIO V60 再入荷のお知らせ')
    await page.getByLabel('本文').fill('お待たせしました。')
    await page.getByRole('button', { name: '送信内容を確認' }).click()
    const dialog = page.getByRole('dialog', { name: '再入荷メールを送信しますか？' })
    expect(await dialog.innerText()).toContain('購読者 3 人')
    await dialog.getByRole('button', { name: '3 人に送信する' }).click()
    const progress = page.locator('.progress')
    await expect.poll(() => progress.innerText(), SLOW).toContain('記録のみ（メール未送信）')
    expect(await progress.innerText()).not.toContain('配信完了')
    const history = page.locator('table.history tbody tr').first()
    await expect.poll(() => history.innerText(), SLOW).toContain('記録のみ（メール未送信）')
    expect(await history.innerText()).not.toContain('完了')
    expect((await stockOf(WAIT)).waiting).toBe(0)
    await expectReadable(page)
    await page.context().close()
  })

  it('record-only sends read 記録のみ（メール未送信） in the overview and the audit trail', async () => {
    const { page } = await openPage(server.browser)
    await signIn(page, server.url, ADMIN)
    await openRoute(page, '#/audit')
    const sent = page.getByRole('row').filter({ hasText: '再入荷メール' }).first()
    expect(await sent.innerText()).toContain('記録のみ（メール未送信）')
    expect(await sent.innerText()).not.toContain('名に送信')
    await openRoute(page, '#/overview')
    await loaded(page)
    const notices = page.getByRole('table', { name: /再入荷通知ごとの結果/ })
    const notice = notices.getByRole('row').filter({ hasText: WAIT_TITLE })
    expect(await notice.innerText()).toContain('記録のみ（メール未送信）')
    await page.context().close()
  })

  it('the CSV import shows product, from → to and who would be notified, and writes only when confirmed', async () => {
    const { page } = await openPage(server.browser)
    await signIn(page, server.url, ADMIN)
    await openRoute(page, '#/stock')
    const csv = 'sku,quantity\r\nSKU-1002,3\r\nSKU-1001,0\r\nNO-SUCH,1\r\n'
    const upload = page.getByLabel(/CSV を取り込む/)
    await upload.setInputFiles(csvFile(csv))
    const preview = page.getByRole('table', { name: '取り込む内容' })
    await preview.waitFor()
    const line = (title: string) => preview.getByRole('row').filter({ hasText: title })
    expect(await line(WAVE_TITLE).innerText()).toMatch(/SKU-1002\s+0 → 3\s+3 人/)
    expect(await line(WAIT_TITLE).innerText()).toMatch(/SKU-1001\s+未設定 → 0\s+0 人/)
    expect(await page.locator('.import-problems li').allInnerTexts()).toEqual([
      'SKU NO-SUCH: 該当する商品がありません',
    ])
    await expectReadable(page)
    expect((await stockOf(WAVE)).quantity).toBe(0)
    await page.getByRole('button', { name: '取り込まない' }).click()
    expect(await preview.count()).toBe(0)
    expect((await stockOf(WAVE)).quantity).toBe(0)

    await upload.setInputFiles(csvFile(csv))
    await preview.waitFor()
    await page.getByRole('button', { name: 'この内容で取り込む' }).click()
    const result = page.locator('.import-result')
    await expect.poll(() => result.innerText(), SLOW).toContain('2 商品の在庫数を取り込みました。')
    expect(await result.innerText()).toContain(
      `「${WAVE_TITLE}」: 自動通知で 3 人を通知済みにしました（記録のみ・メール未送信）。`,
    )
    expect(await stockOf(WAVE)).toMatchObject({ quantity: 3, waiting: 1 })
    await loaded(page)
    expect(await page.locator(`tr[data-product="${WAVE}"] td.waiting .count`).innerText()).toBe(
      '1 人',
    )
    await page.context().close()
  })

  it('after an automatic wave 在庫 says how many were notified and when the next wave is, and refreshes the counts', async () => {
    const { page } = await openPage(server.browser)
    await signIn(page, server.url, ADMIN)
    await openRoute(page, '#/stock')
    const row = page.locator(`tr[data-product="${EDIT}"]`)
    expect(await row.locator('td.waiting .count').innerText()).toBe('2 人')
    await row.getByLabel(`${EDIT_TITLE}の在庫数`).fill('1')
    await row.getByRole('button', { name: '保存' }).click()
    const message = page.getByText(`「${EDIT_TITLE}」の在庫数を 1 にしました。`)
    await message.waitFor()
    const said = await message.innerText()
    expect(said).toContain('自動通知で 1 人を通知済みにしました（記録のみ・メール未送信）。')
    expect(said).toMatch(/次の配信は \d{4}\/\d{2}\/\d{2} \d{2}:\d{2} の予定です/)
    await loaded(page)
    expect(await row.locator('td.waiting .count').innerText()).toBe('1 人')
    await page.context().close()
  })

  it('keeps words whole: search cards at 1280 px, product names and dates of 再入荷通知の結果 at 375 px', async () => {
    const wide = await openPage(server.browser, 1280)
    await signIn(wide.page, server.url, ADMIN)
    await openRoute(wide.page, '#/overview')
    await loaded(wide.page)
    const queries = '#top-title ~ table td:first-child, #zero-title ~ table td:first-child'
    expect(await texts(wide.page, queries)).toContain('ちゃせん')
    for (const lines of await lineCount(wide.page, queries)) expect(lines).toBe(1)
    const trends = await lineCount(wide.page, '#top-title ~ table .trend')
    expect(trends.length).toBeGreaterThan(0)
    for (const lines of trends) expect(lines).toBe(1)
    await wide.page.context().close()

    const phone = await openPage(server.browser, 375)
    await signIn(phone.page, server.url, ADMIN)
    await openRoute(phone.page, '#/overview')
    await loaded(phone.page)
    const notices = '[aria-label="再入荷通知ごとの結果の表"] tbody'
    const names = await texts(phone.page, `${notices} td:nth-child(2)`)
    expect(names).toContain(WAIT_TITLE)
    const nameLines = await lineCount(phone.page, `${notices} td:nth-child(2)`)
    names.forEach((name, index) => {
      // why: at least 6 characters a line; one character a line cannot be read
      expect(nameLines[index], name).toBeLessThanOrEqual(Math.ceil(name.length / 6))
    })
    for (const lines of await lineCount(phone.page, `${notices} td:nth-child(1)`)) {
      expect(lines).toBe(1)
    }
    await expectReadable(phone.page)
    await phone.page.context().close()
  })

  it('speaks to people: products by name and the way in by a Japanese word in the consent table; no slugs in the audit filter', async () => {
    const { page } = await openPage(server.browser)
    await signIn(page, server.url, ADMIN)
    await openRoute(page, '#/people')
    await page.getByLabel('メールアドレス').fill('wait-1@example.jp')
    await page.getByRole('button', { name: '開示する' }).click()
    const consents = page.getByRole('table', { name: '同意の記録' })
    await consents.waitFor()
    const row = await consents.locator('tbody tr').first().innerText()
    expect(row).toContain(WAIT_TITLE)
    expect(row).not.toContain(WAIT)
    expect(row).not.toMatch(/\bAPI\b/)
    await openRoute(page, '#/audit')
    expect(await page.locator('main').innerText()).not.toMatch(/スラッグ|productSlug/)
    await page.getByLabel('商品').selectOption(WAVE)
    await page.getByRole('button', { name: '絞り込む' }).click()
    await loaded(page)
    const entries = await page.locator('table.audit tbody tr').allInnerTexts()
    expect(entries.length).toBeGreaterThan(0)
    for (const entry of entries) expect(entry).toContain(WAVE_TITLE)
    await expectReadable(page)
    await page.context().close()
  })
})
