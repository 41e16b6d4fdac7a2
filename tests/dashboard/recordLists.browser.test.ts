import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import {
  chromiumFixture,
  describeInChromium,
  openPage,
  type PageProblems,
} from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN, PREORDER_TOKEN } from '../helpers/tokens.js'
import { YAMADA_TOKEN } from '../helpers/sharedService.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

const MAIN = 'chasen-takayama'
const OTHER = 'kyusu-tokoname'
const BULK = 'hasami-rim-plate'
const MANY = 'mino-yaki-mug'
const INJECTION = '=HYPERLINK("http://evil.test","x")'
/** A person's token with both groups (STAFF_TOKENS): lists and archive in one sign-in. */
const STAFF = YAMADA_TOKEN

// why: the archive has a token of its own here (D7); a person's token may hold both groups
const shop = chromiumFixture('archiveToken')
let page: Page
let problems: PageProblems

async function reserve(name: string, productSlug: string): Promise<string> {
  const email = `${name.replace(/[^a-z0-9]/gi, '').toLowerCase() || 'guest'}-${crypto.randomUUID().slice(0, 6)}@example.jp`
  const answer = await shop.postJson('/api/reservation', { name, email, productSlug })
  expect(answer.status).toBe(200)
  return answer.body.reservationId
}

async function setStatus(id: string, productSlug: string, status: string, notes?: string) {
  const answer = await shop.postJson(
    '/api/admin-reservations-status',
    { id, productSlug, status, ...(notes === undefined ? {} : { notes }) },
    ADMIN_TOKEN,
  )
  expect(answer.status).toBe(200)
}

/** Presses Tab (or Shift+Tab) until the focused element has `label`; fails after 30 steps. */
async function tabTo(label: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let step = 0; step < 30; step++) {
    await page.keyboard.press(key)
    const focused = await page.evaluate(
      () =>
        document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent,
    )
    if (focused === label) return
  }
  throw new Error(`${label} cannot be reached with ${key}`)
}

const row = (name: string) => page.getByRole('row').filter({ hasText: name })
const mainText = () => page.locator('main').innerText()

describeInChromium('admin dashboard: reservations in a real browser', shop, () => {
  beforeAll(async () => {
    await reserve('山田 花子', MAIN)
    await reserve('佐藤 次郎', MAIN)
    await reserve('鈴木 三郎', OTHER)
    const csvId = await reserve(INJECTION, MAIN)
    await setStatus(csvId, MAIN, 'pending', '備考, "大事"\n2行目')
    for (const name of ['一括 一', '一括 二', '一括 三']) await reserve(name, BULK)
    for (let i = 1; i <= 23; i++) await reserve(`まとめ ${String(i).padStart(2, '0')}`, MANY)
    ;({ page, problems } = await openPage(shop.browser))
  })

  it('refuses a wrong token with a Japanese message and shows no data', async () => {
    await page.goto(`${shop.url}/admin/`)
    await page.getByLabel('管理用トークン').fill('not-the-token')
    await page.getByRole('button', { name: 'サインイン' }).click()
    await page.getByText('トークンが正しくありません。').waitFor()
    expect(await page.getByRole('navigation', { name: 'メインメニュー' }).count()).toBe(0)
    expect(await page.locator('table').count()).toBe(0)
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
  })

  it('signs in with the keyboard, keeps the token in sessionStorage only, shows the statistics', async () => {
    await signIn(page, shop.url, STAFF)
    await loaded(page)
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([STAFF])
    expect(await page.evaluate(() => localStorage.length)).toBe(0)
    expect(await mainText()).toContain('合計 30 件（アーカイブを含む）')
  })

  it('lists newest first and filters by product, status and text', async () => {
    await openRoute(page, '#/reservations')
    const names = await page.locator('tbody tr td[data-label="名前"]').allInnerTexts()
    expect(names.slice(0, 2)).toEqual(['まとめ 23', 'まとめ 22'])
    await page.getByLabel('商品').selectOption(MAIN)
    await loaded(page)
    expect(await page.locator('tbody tr').count()).toBe(3)
    await page.getByLabel('名前・メール').fill('山田')
    expect(await page.locator('tbody tr td[data-label="名前"]').allInnerTexts()).toEqual([
      '山田 花子',
    ])
    await page.getByLabel('名前・メール').fill('')
    await page.getByLabel('ステータス', { exact: true }).selectOption('confirmed')
    await loaded(page)
    expect(await page.getByText('該当する項目はありません。').count()).toBe(1)
    await page.getByLabel('ステータス', { exact: true }).selectOption('')
    await loaded(page)
  })

  it('renders user data as text, never as markup', async () => {
    expect(await row(INJECTION).count()).toBe(1)
    expect(await page.locator('a[href="http://evil.test"]').count()).toBe(0)
  })

  it('offers only the §3.2 transitions and changes a status', async () => {
    const control = page.getByLabel('ステータス: 山田 花子')
    const offered = await control
      .locator('option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))
    expect(offered).toEqual(['pending', 'confirmed', 'cancelled'])
    await control.selectOption('confirmed')
    await page.getByRole('button', { name: 'ステータスを変更: 山田 花子' }).click()
    await page.getByText('山田 花子: ステータスを「確定」に変更しました。').waitFor()
    const now = await page.getByLabel('ステータス: 山田 花子').locator('option').allInnerTexts()
    expect(now).toEqual(['確定', '未対応', '受け渡し済み', 'キャンセル'])
  })

  it('shows a refused transition (changed elsewhere meanwhile) and the stored status', async () => {
    const list = await shop.postJson(
      '/api/admin-reservations-list',
      { productSlug: MAIN },
      ADMIN_TOKEN,
    )
    const jiro = list.body.reservations.find((r: { name: string }) => r.name === '佐藤 次郎')
    await setStatus(jiro.id, MAIN, 'confirmed')
    await setStatus(jiro.id, MAIN, 'fulfilled')
    await page.getByLabel('ステータス: 佐藤 次郎').selectOption('cancelled')
    await page.getByRole('button', { name: 'ステータスを変更: 佐藤 次郎' }).click()
    await page.getByRole('button', { name: '「キャンセル」に変更する' }).click()
    await page
      .getByRole('alert')
      .filter({ hasText: '「受け渡し済み」から「キャンセル」へは変更できません' })
      .waitFor()
    await loaded(page)
    expect(await page.getByLabel('ステータス: 佐藤 次郎').inputValue()).toBe('fulfilled')
    // why: the list is drawn again with what is stored; the refusal must stay beside the row
    expect(await page.getByRole('alert').innerText()).toContain(
      '「受け渡し済み」から「キャンセル」へは変更できません',
    )
  })

  it('edits notes in place', async () => {
    await page.getByLabel('メモ: 山田 花子').fill('土曜日に店頭受け取り')
    await page.getByRole('button', { name: 'メモを保存: 山田 花子' }).click()
    await page.getByText('山田 花子: メモを保存しました。').waitFor()
    const list = await shop.postJson(
      '/api/admin-reservations-list',
      { productSlug: MAIN },
      ADMIN_TOKEN,
    )
    const hanako = list.body.reservations.find((r: { name: string }) => r.name === '山田 花子')
    expect(hanako).toMatchObject({ notes: '土曜日に店頭受け取り', status: 'confirmed' })
  })

  it('exports the list shown as CSV: BOM, RFC 4180 quoting, formula injection neutralised', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV を書き出す' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^予約-\d{8}-\d{4}\.csv$/)
    const bytes = await readFile((await download.path())!)
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = bytes.toString('utf8').slice(1)
    expect(text.split('\r\n')[0]).toBe(
      '予約番号,受付日時,名前,メールアドレス,商品,商品コード,数量,ステータス,メモ,対応日時,アーカイブ日時,LINE配信状況',
    )
    expect(text.split('\r\n')).toHaveLength(3 + 2)
    expect(text).toContain(`,"'=HYPERLINK(""http://evil.test"",""x"")",`)
    expect(text).toContain(',"備考, ""大事""\n2行目",')
    expect(text).not.toMatch(/(^|,)=/m)
  })

  it('archives the selected rows with one token, reports per item', async () => {
    await page.getByLabel('商品').selectOption(BULK)
    await loaded(page)
    for (const name of ['一括 一', '一括 二', '一括 三']) {
      await page.getByLabel(`選択: ${name}`).check()
    }
    const list = await shop.postJson(
      '/api/admin-reservations-list',
      { productSlug: BULK },
      ADMIN_TOKEN,
    )
    const gone = list.body.reservations.find((r: { name: string }) => r.name === '一括 二')
    const removed = await shop.postJson(
      '/api/admin/reservations/delete',
      { ids: [{ id: gone.id, productSlug: BULK }] },
      PREORDER_TOKEN,
    )
    expect(removed.body.deletedCount).toBe(1)

    await page.getByRole('button', { name: '選択した項目をアーカイブ' }).click()
    await page.getByText('2 件の予約をアーカイブしました。').waitFor()
    expect(await page.getByRole('dialog').count()).toBe(0)
    const failure = page.locator(`.item-errors li[data-id="${gone.id}"]`)
    expect(await failure.innerText()).toContain('予約が見つかりません')
    await loaded(page)
    expect(await page.getByText('該当する項目はありません。').count()).toBe(1)
  })

  it('pages the archive, unarchives and deletes (after a warning that it cannot be undone)', async () => {
    await page.getByLabel('商品').selectOption(MANY)
    await loaded(page)
    await page.getByLabel('このページをすべて選択').check()
    await page.getByRole('button', { name: '選択した項目をアーカイブ' }).click()
    await page.getByText('23 件の予約をアーカイブしました。').waitFor()
    expect(await page.getByRole('dialog').count()).toBe(0)

    await page.getByRole('link', { name: 'アーカイブ' }).click()
    await openRoute(page, '#/reservations/archive')
    await page.getByLabel('商品').selectOption(MANY)
    await loaded(page)
    expect(await page.getByText('1 / 2 ページ（全 23 件）').count()).toBe(1)
    expect(await page.locator('tbody tr').count()).toBe(20)
    await page.getByRole('button', { name: '次へ' }).click()
    await page.getByText('2 / 2 ページ（全 23 件）').waitFor()
    await loaded(page)
    const lastPage = await page.locator('tbody td[data-label="名前"]').allInnerTexts()
    expect(lastPage).toHaveLength(3)

    await page.getByLabel(`選択: ${lastPage[0]}`).check()
    await page.getByRole('button', { name: '選択した項目を元に戻す' }).click()
    await page.getByText('1 件の予約をアーカイブから戻しました。').waitFor()
    await loaded(page)
    expect(await page.locator('tbody tr').count()).toBe(2)

    await page.getByLabel(`選択: ${lastPage[1]}`).check()
    await page.getByRole('button', { name: '選択した項目を削除' }).click()
    const confirm = page.getByRole('dialog', { name: '完全に削除しますか？' })
    expect(await confirm.innerText()).toContain('この操作は取り消せません。')
    await confirm.getByRole('button', { name: '削除する' }).click()
    await page.getByText('1 件の予約を削除しました。').waitFor()
    await loaded(page)
    await page.getByText('2 / 2 ページ（全 21 件）').waitFor()
    expect(await page.locator('tbody td[data-label="名前"]').allInnerTexts()).toEqual([lastPage[2]])

    const active = await shop.postJson(
      '/api/admin-reservations-list',
      { productSlug: MANY },
      ADMIN_TOKEN,
    )
    expect(active.body.reservations.map((r: { name: string }) => r.name)).toEqual([lastPage[0]])
    const archived = await shop.postJson(
      '/api/admin/reservations/archives/list',
      { productSlug: MANY },
      PREORDER_TOKEN,
    )
    expect(archived.body.total).toBe(21)
  })

  it('works with the keyboard alone: select with Space, archive with Enter', async () => {
    await page.getByRole('link', { name: '有効' }).click()
    await openRoute(page, '#/reservations')
    await page.getByLabel('商品').selectOption(OTHER)
    await loaded(page)
    await page.getByLabel('名前・メール').focus()
    await tabTo('選択: 鈴木 三郎')
    await page.keyboard.press('Space')
    await tabTo('選択した項目をアーカイブ', 'Shift+Tab')
    await page.keyboard.press('Enter')
    await page.getByText('1 件の予約をアーカイブしました。').waitFor()
  })

  it('never asks for a second token: the shared admin token alone is not offered the archive', async () => {
    const { page: shared } = await openPage(shop.browser)
    await signIn(shared, shop.url, ADMIN_TOKEN)
    await shared.evaluate(() => (location.hash = '#/reservations/archive'))
    await shared.waitForFunction(
      () => document.getElementById('app')?.dataset.route === '#/reservations',
    )
    expect(await shared.getByRole('link', { name: 'アーカイブ' }).count()).toBe(0)
    expect(await shared.getByRole('dialog').count()).toBe(0)
    expect(await shared.evaluate(() => Object.values(sessionStorage))).toEqual([ADMIN_TOKEN])
    await shared.context().close()
  })

  it('signs out with a message when the admin token stops being accepted', async () => {
    await page.evaluate(() => sessionStorage.setItem('shopAdmin.adminToken', 'rotated'))
    await page.evaluate(() => (window.location.hash = '#/overview'))
    await page
      .getByText('トークンが受け付けられませんでした。もう一度サインインしてください。')
      .waitFor()
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    await signIn(page, shop.url, STAFF)
  })

  it('signs out: the tokens are gone', async () => {
    await page.getByRole('button', { name: 'サインアウト' }).click()
    await page.getByLabel('管理用トークン').waitFor()
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    expect(problems.pageErrors).toEqual([])
  })
})
