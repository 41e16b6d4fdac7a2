import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium } from '../../platform/chromium.js'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { axeViolations } from './axeCheck.js'
import {
  buildDashboard,
  describeInChromium,
  loaded,
  openPage,
  openRoute,
  signIn,
} from './browserKit.js'

/**
 * Staff doing their whole job in a real Chromium: one named token per person with the groups
 * their job needs, notes that reach the customer as staff chose. axe-core on each screen, in a
 * light and a dark colour scheme of the browser.
 */

const ADMIN = 'flows-admin-token'
const PREORDER = 'flows-preorder-token'
const SATO = 'flows-sato-token-0123456789'
const SUZUKI = 'flows-suzuki-token-0123456789'
const TANAKA = 'flows-tanaka-token-0123456789'
const ARCHIVING = 'mino-yaki-mug'
const NOTES = 'chasen-takayama'
const NOTES_TITLE = '高山 茶筅 Takayama 百本立'

let server: RunningDevServer
let browser: Browser

async function reserve(name: string, productSlug: string): Promise<string> {
  const email = `guest-${crypto.randomUUID().slice(0, 8)}@example.jp`
  const answer = await server.postJson('/api/reservation', { name, email, productSlug })
  expect(answer.status).toBe(200)
  return answer.body.reservationId
}

async function auditOf(recordId: string): Promise<[string, string][]> {
  const answer = await server.postJson('/api/admin/audit/list', { recordId }, ADMIN)
  return answer.body.entries.map((entry: { action: string; actor: string }) => [
    entry.action,
    entry.actor,
  ])
}

async function reservationOf(id: string, productSlug: string) {
  const answer = await server.postJson('/api/admin/reservations/find', { id }, ADMIN)
  expect(answer.body.reservation.productSlug).toBe(productSlug)
  return answer.body.reservation as { status: string; notes: string; shareNote?: boolean }
}

/** axe-core finds nothing with the browser in the light and in the dark colour scheme. */
async function expectReadable(page: Page): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await axeViolations(page), colorScheme).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

const menuLinks = (page: Page) =>
  page.getByRole('navigation', { name: 'メインメニュー' }).getByRole('link').allInnerTexts()

describeInChromium('staff do their whole job in the dashboard', () => {
  beforeAll(async () => {
    await buildDashboard()
    server = await startDevServer({
      ADMIN_API_TOKEN: ADMIN,
      PREORDER_API_TOKEN: PREORDER,
      STAFF_TOKENS: `sato:${SATO}:admin+preorder,suzuki:${SUZUKI}:preorder,tanaka:${TANAKA}:admin`,
    })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('sato signs in once, sees their name, archives and restores with no second token; the audit names sato', async () => {
    const id = await reserve('佐藤 保管', ARCHIVING)
    const { page, problems } = await openPage(browser)
    let asked = 0
    page.on('dialog', () => asked++)
    await signIn(page, server.url, SATO)
    expect(await page.locator('header .signed-in').innerText()).toBe('サインイン中: sato')
    await openRoute(page, '#/reservations')
    await page.getByLabel('商品').selectOption(ARCHIVING)
    await loaded(page)
    await page.getByLabel('選択: 佐藤 保管').check()
    await page.getByRole('button', { name: '選択した項目をアーカイブ' }).click()
    await page.getByText('1 件の予約をアーカイブしました。').waitFor()
    expect(await page.getByRole('dialog').count()).toBe(0)

    await openRoute(page, '#/reservations/archive')
    await page.getByLabel('選択: 佐藤 保管').check()
    await page.getByRole('button', { name: '選択した項目を元に戻す' }).click()
    await page.getByText('1 件の予約をアーカイブから戻しました。').waitFor()
    expect(await page.getByText('アーカイブ用トークン').count()).toBe(0)
    expect(asked).toBe(0)
    expect(await auditOf(id)).toEqual([
      ['unarchive', 'sato'],
      ['archive', 'sato'],
    ])
    await expectReadable(page)
    expect(problems.pageErrors).toEqual([])
    await page.context().close()
  })

  it('suzuki (archive group only) signs in, is offered the archives only, and restores a reservation', async () => {
    const id = await reserve('鈴木 戻す', ARCHIVING)
    const archived = await server.postJson(
      '/api/admin/reservations/archive',
      { ids: [{ id, productSlug: ARCHIVING }] },
      PREORDER,
    )
    expect(archived.body.archivedIds).toEqual([id])
    for (const width of [1280, 375]) {
      const { page, problems } = await openPage(browser, width)
      await signIn(page, server.url, SUZUKI)
      await loaded(page)
      expect(await page.locator('header .signed-in').innerText()).toBe('サインイン中: suzuki')
      expect(await page.evaluate(() => location.hash)).toBe('#/reservations/archive')
      expect(await menuLinks(page)).toEqual(['予約', '再入荷通知'])
      expect(await page.locator('header').innerText()).toContain(
        'このトークンでできるのは、アーカイブの閲覧・元に戻す・削除です。',
      )
      expect(await page.getByRole('columnheader', { name: '変更履歴' }).count()).toBe(0)
      await expectReadable(page)
      if (width === 375) {
        await page.getByLabel('選択: 鈴木 戻す').check()
        await page.getByRole('button', { name: '選択した項目を元に戻す' }).click()
        await page.getByText('1 件の予約をアーカイブから戻しました。').waitFor()
      }
      // why: a route of the admin group typed in the address bar shows what the token may open
      await page.evaluate(() => (location.hash = '#/stock'))
      await page.waitForFunction(() => location.hash === '#/reservations/archive')
      expect(problems.pageErrors).toEqual([])
      await page.context().close()
    }
    expect(await auditOf(id)).toEqual([
      ['unarchive', 'suzuki'],
      ['archive', 'preorder'],
    ])
  })

  it('tanaka (admin group only) sees why archiving is not offered, and no archive tab', async () => {
    await reserve('田中 閲覧', ARCHIVING)
    const { page } = await openPage(browser)
    await signIn(page, server.url, TANAKA)
    await openRoute(page, '#/reservations')
    await page.getByLabel('商品').selectOption(ARCHIVING)
    await loaded(page)
    await page.getByLabel('選択: 田中 閲覧').check()
    const button = page.getByRole('button', { name: '選択した項目をアーカイブ' })
    expect(await button.isDisabled()).toBe(true)
    expect(await page.locator('main').innerText()).toContain(
      'このトークンにはアーカイブの権限がないため、アーカイブできません。',
    )
    const tabs = page.getByRole('navigation', { name: '予約の表示' }).getByRole('link')
    expect(await tabs.allInnerTexts()).toEqual(['有効', '予約枠・番号検索'])
    await expectReadable(page)
    await page.context().close()
  })

  it('the share-note tick survives 保存, the row says the note goes with the next e-mail, and 確定 sends it', async () => {
    const id = await reserve('伝える 花子', NOTES)
    const note = '1 月 25 日から店頭でお渡しします。'
    const { page } = await openPage(browser)
    await signIn(page, server.url, SATO)
    await openRoute(page, '#/reservations')
    await page.getByLabel('商品').selectOption(NOTES)
    await loaded(page)
    const row = page.getByRole('row').filter({ hasText: '伝える 花子' })
    await row.getByLabel('メモ: 伝える 花子').fill(note)
    await row.getByText('メールでお客様にメモを伝える').click()
    await row.getByRole('button', { name: 'メモを保存: 伝える 花子' }).click()
    await page
      .getByText('伝える 花子: メモを保存しました。次のメールでお客様に伝えます。')
      .waitFor()
    const saved = page.getByRole('row').filter({ hasText: '伝える 花子' })
    expect(await saved.locator('input[name=shareNote]').isChecked()).toBe(true)
    expect(await saved.innerText()).toContain('このメモは次のメールでお客様に伝わります。')
    expect(await reservationOf(id, NOTES)).toMatchObject({ notes: note, shareNote: true })

    await saved.getByLabel('ステータス: 伝える 花子').selectOption('confirmed')
    await saved.getByRole('button', { name: 'ステータスを変更: 伝える 花子' }).click()
    await page.getByText('伝える 花子: ステータスを「確定」に変更しました。').waitFor()
    await expect
      .poll(() => server.output().includes(`【ご予約確定】${NOTES_TITLE}`), { timeout: 10_000 })
      .toBe(true)
    const mailed = server.output().slice(server.output().indexOf(`【ご予約確定】${NOTES_TITLE}`))
    expect(mailed.split('\n')[0]).toContain(note)
    await expectReadable(page)
    await page.context().close()
  })
})
