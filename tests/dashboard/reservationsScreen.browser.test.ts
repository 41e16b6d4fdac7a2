import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

/**
 * The reservations screen as staff work with it, with one admin token (it opens the archive too,
 * D7): ticking a page of rows, status changes that ask before they cancel and offer 元に戻す,
 * lookup by 予約番号, kana or e-mail, a list that cannot be loaded, CSV file names, the last
 * archive page, and one task done with the keyboard alone.
 */

const PAGE_BOX = 'このページをすべて選択'
const THREE = 'hasami-rim-plate'
const STATUS = 'chasen-takayama'
const FIND = 'kyusu-tokoname'
const ARCHIVE = 'mino-yaki-mug'
const KEYS = 'hario-v60-dripper'

const shop = chromiumFixture('shop')
let page: Page

async function reserve(name: string, productSlug: string, email?: string): Promise<string> {
  const address = email ?? `guest-${crypto.randomUUID().slice(0, 8)}@example.jp`
  const answer = await shop.postJson('/api/reservation', { name, email: address, productSlug })
  expect(answer.status).toBe(200)
  return answer.body.reservationId
}

async function stored(productSlug: string, archived = false) {
  const answer = archived
    ? await shop.postJson(
        '/api/admin/reservations/archives/list',
        { productSlug, pageSize: 100 },
        ADMIN_TOKEN,
      )
    : await shop.postJson('/api/admin-reservations-list', { productSlug }, ADMIN_TOKEN)
  return answer.body.reservations as { id: string; name: string; status: string; notes: string }[]
}

const row = (name: string) => page.getByRole('row').filter({ hasText: name })
/** The focused element's name as staff hear it: aria-label, its <label>, else its text. */
const focusedLabel = () =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLInputElement | null
    return (
      active?.getAttribute('aria-label') ??
      active?.labels?.[0]?.textContent ??
      active?.textContent?.trim()
    )
  })

/** Presses `key` until the focused element has `label`; fails after 40 presses. */
async function pressUntil(label: string, key = 'Tab'): Promise<number> {
  for (let step = 1; step <= 40; step++) {
    await page.keyboard.press(key)
    if ((await focusedLabel()) === label) return step
  }
  throw new Error(`${label} cannot be reached with ${key}`)
}

/** Opens `hash` afresh (through the overview), so a test starts from the view's first state. */
async function freshView(hash: string): Promise<void> {
  await openRoute(page, '#/overview')
  await openRoute(page, hash)
}

async function showProduct(slug: string): Promise<void> {
  await page.getByLabel('商品').selectOption(slug)
  await loaded(page)
}

describeInChromium(
  'the reservations screen: selection, status, lookup, archive pages, keyboard',
  shop,
  () => {
    beforeAll(async () => {
      for (const name of ['一 一', '一 二', '一 三']) await reserve(name, THREE)
      for (const name of ['山田 花子', '佐藤 次郎', '高橋 五郎']) await reserve(name, STATUS)
      for (let i = 1; i <= 22; i++) await reserve(`保管 ${String(i).padStart(2, '0')}`, ARCHIVE)
      const ids = (await stored(ARCHIVE)).map(({ id }) => ({ id, productSlug: ARCHIVE }))
      const archived = await shop.postJson('/api/admin/reservations/archive', { ids }, ADMIN_TOKEN)
      expect(archived.body.archivedIds).toHaveLength(22)
      ;({ page } = await openPage(shop.browser))
      await signIn(page, shop.url, ADMIN_TOKEN)
    })

    it('"select the whole page" ticks every row box; unticking one leaves the rest; archive sends those', async () => {
      await freshView('#/reservations')
      await showProduct(THREE)
      await page.getByLabel(PAGE_BOX).check()
      for (const name of ['一 一', '一 二', '一 三']) {
        expect(await page.getByLabel(`選択: ${name}`).isChecked()).toBe(true)
      }
      await page.getByLabel('選択: 一 二').uncheck()
      expect(await page.getByLabel(PAGE_BOX).isChecked()).toBe(false)
      await page.getByText('2 件選択中').waitFor()
      await page.getByRole('button', { name: '選択した項目をアーカイブ' }).click()
      await page.getByText('2 件の予約をアーカイブしました。').waitFor()
      await loaded(page)
      expect((await stored(THREE)).map((r) => r.name)).toEqual(['一 二'])
      // why: the focus stays in the list, on the row now where the first archived one was
      expect(await focusedLabel()).toBe('選択: 一 二')
    })

    it('arrow keys on a status send nothing; 変更 saves, next to the row, with 元に戻す', async () => {
      await freshView('#/reservations')
      await showProduct(STATUS)
      const control = page.getByLabel('ステータス: 山田 花子')
      await control.focus()
      await page.keyboard.press('ArrowDown')
      await page
        .getByRole('button', { name: 'ステータスを変更: 山田 花子' })
        .waitFor({ timeout: 5000 })
      expect(await control.inputValue()).toBe('confirmed')
      expect((await stored(STATUS)).find((r) => r.name === '山田 花子')?.status).toBe('pending')

      await page.getByRole('button', { name: 'ステータスを変更: 山田 花子' }).click()
      const done = row('山田 花子').getByRole('status')
      await done.filter({ hasText: '山田 花子: ステータスを「確定」に変更しました。' }).waitFor()
      expect((await stored(STATUS)).find((r) => r.name === '山田 花子')?.status).toBe('confirmed')
      // why: the focus stays on the row's status, the message is in the row
      expect(await focusedLabel()).toBe('ステータス: 山田 花子')

      await row('山田 花子').getByRole('button', { name: '元に戻す（未対応）' }).click()
      await row('山田 花子')
        .getByText('山田 花子: ステータスを「未対応」に変更しました。')
        .waitFor()
      expect((await stored(STATUS)).find((r) => r.name === '山田 花子')?.status).toBe('pending')
    })

    it('cancelling asks first; a cancelled dialog changes nothing', async () => {
      await freshView('#/reservations')
      await showProduct(STATUS)
      await page.getByLabel('ステータス: 佐藤 次郎').selectOption('cancelled')
      await page.getByRole('button', { name: 'ステータスを変更: 佐藤 次郎' }).click()
      const dialog = page.getByRole('dialog', { name: 'ステータスを変更しますか？' })
      expect(await dialog.innerText()).toContain('「未対応」から「キャンセル」に変更します')
      await dialog.getByRole('button', { name: 'キャンセル', exact: true }).click()
      expect((await stored(STATUS)).find((r) => r.name === '佐藤 次郎')?.status).toBe('pending')
      expect(await focusedLabel()).toBe('ステータス: 佐藤 次郎')

      await page.getByRole('button', { name: 'ステータスを変更: 佐藤 次郎' }).click()
      await dialog.getByRole('button', { name: '「キャンセル」に変更する' }).click()
      await row('佐藤 次郎').getByText('ステータスを「キャンセル」に変更しました。').waitFor()
      expect((await stored(STATUS)).find((r) => r.name === '佐藤 次郎')?.status).toBe('cancelled')
    })

    it('confirmed → cancelled offers no undo (§3.2 has no way back)', async () => {
      await freshView('#/reservations')
      await showProduct(STATUS)
      await page.getByLabel('ステータス: 高橋 五郎').selectOption('confirmed')
      await page.getByRole('button', { name: 'ステータスを変更: 高橋 五郎' }).click()
      await row('高橋 五郎').getByText('ステータスを「確定」に変更しました。').waitFor()
      await page.getByLabel('ステータス: 高橋 五郎').selectOption('cancelled')
      await page.getByRole('button', { name: 'ステータスを変更: 高橋 五郎' }).click()
      await page.getByRole('button', { name: '「キャンセル」に変更する' }).click()
      await row('高橋 五郎').getByText('ステータスを「キャンセル」に変更しました。').waitFor()
      expect(
        await row('高橋 五郎')
          .getByRole('button', { name: /元に戻す/ })
          .count(),
      ).toBe(0)
    })

    it('finds a reservation by 予約番号, by name without the space, in kana, by e-mail', async () => {
      const id = await reserve('やまだ はなこ', FIND, 'Hanako.Yamada@Example.jp')
      await reserve('田中 一郎', FIND)
      await freshView('#/reservations')
      const search = page.getByLabel('予約番号・名前・メール')
      const names = () => page.locator('tbody td[data-label="名前"]').allInnerTexts()
      await search.fill(id)
      expect(await names()).toEqual(['やまだ はなこ'])
      expect(await page.locator('tbody td[data-label="予約番号"]').allInnerTexts()).toEqual([id])
      await search.fill(
        id
          .toUpperCase()
          .normalize('NFKC')
          .replace(/[A-Z0-9_]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
      )
      expect(await names()).toEqual(['やまだ はなこ'])
      await search.fill('ヤマダハナコ')
      expect(await names()).toEqual(['やまだ はなこ'])
      await search.fill('田中一郎')
      expect(await names()).toEqual(['田中 一郎'])
      await search.fill('HANAKO.YAMADA@')
      expect(await names()).toEqual(['やまだ はなこ'])
      await search.fill('')
    })

    it('a list that cannot be loaded shows no count of the old one', async () => {
      await freshView('#/reservations')
      await page.route('**/api/admin-reservations-list', (route) => route.abort())
      await page.getByRole('button', { name: '再読み込み' }).click()
      await page.getByText('一覧を読み込めませんでした。').waitFor()
      expect(await page.locator('main').innerText()).not.toContain('表示')
      await page.unroute('**/api/admin-reservations-list')
      await page.getByRole('button', { name: '再読み込み' }).click()
      await loaded(page)
    })

    it('CSV files have Japanese names; the archive says it exports the page shown', async () => {
      await freshView('#/reservations')
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'CSV を書き出す' }).click(),
      ])
      expect(download.suggestedFilename()).toMatch(/^予約-\d{8}-\d{4}\.csv$/)
      await openRoute(page, '#/reservations/archive')
      const [archiveFile] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'このページを CSV に書き出す' }).click(),
      ])
      expect(archiveFile.suggestedFilename()).toMatch(/^予約-アーカイブ-1ページ-\d{8}-\d{4}\.csv$/)
      const text = (await readFile((await archiveFile.path())!)).toString('utf8')
      expect(text.split('\r\n')[0]).toContain('予約番号')
    })

    it('deleting every row of the last archive page shows the page that is now last', async () => {
      await freshView('#/reservations/archive')
      await showProduct(ARCHIVE)
      await page.getByRole('button', { name: '次へ' }).click()
      await page.getByText('2 / 2 ページ（全 22 件）').waitFor()
      await loaded(page)
      await page.getByLabel(PAGE_BOX).check()
      await page.getByRole('button', { name: '選択した項目を削除' }).click()
      await page.getByRole('button', { name: '削除する' }).click()
      await page.getByText('2 件の予約を削除しました。').waitFor()
      await loaded(page)
      expect(await page.locator('tbody tr').count()).toBe(20)
      await page.getByRole('button', { name: '再読み込み' }).click()
      await loaded(page)
      expect(await page.locator('tbody tr').count()).toBe(20)
      expect(await page.getByText('該当する項目はありません。').count()).toBe(0)
    })

    it('keyboard only: sign in → find by 予約番号 → confirm with a note → archive, focus kept', async () => {
      const id = await reserve('鍵盤 太郎', KEYS)
      await reserve('鍵盤 次郎', KEYS)
      page = (await openPage(shop.browser)).page
      let presses = 0
      const until = async (label: string, key = 'Tab') => (presses += await pressUntil(label, key))
      await page.goto(`${shop.url}/admin/`)
      await page.getByLabel('管理用トークン').waitFor()
      await page.keyboard.type(ADMIN_TOKEN)
      await page.keyboard.press('Enter')
      await page.getByRole('navigation', { name: 'メインメニュー' }).waitFor()
      await loaded(page)
      await until('予約')
      await page.keyboard.press('Enter')
      await page.waitForFunction(
        () => document.getElementById('app')?.dataset.route === '#/reservations',
      )
      await loaded(page)
      await until('予約番号・名前・メール')
      await page.keyboard.type(id)
      await until('ステータス: 鍵盤 太郎')
      await page.keyboard.press('ArrowDown')
      await until('ステータスを変更: 鍵盤 太郎')
      await page.keyboard.press('Enter')
      await row('鍵盤 太郎').getByText('ステータスを「確定」に変更しました。').waitFor()
      expect(await focusedLabel()).toBe('ステータス: 鍵盤 太郎')
      await until('メモ: 鍵盤 太郎')
      await page.keyboard.type('店頭で受け取り')
      await until('メモを保存: 鍵盤 太郎')
      await page.keyboard.press('Enter')
      await row('鍵盤 太郎').getByText('鍵盤 太郎: メモを保存しました。').waitFor()
      expect(await focusedLabel()).toBe('メモ: 鍵盤 太郎')
      await until('選択: 鍵盤 太郎', 'Shift+Tab')
      await page.keyboard.press('Space')
      await until('選択した項目をアーカイブ', 'Shift+Tab')
      await page.keyboard.press('Enter')
      await page.getByText('1 件の予約をアーカイブしました。').waitFor()
      await loaded(page)
      // why: the row left the list (the search shows only it); the focus is on the answer beside
      // the toolbar, not at the page's start
      expect(
        await page.evaluate(() => document.activeElement?.closest('.result-area') !== null),
      ).toBe(true)
      const [archived] = (await stored(KEYS, true)).filter((r) => r.id === id)
      expect(archived).toMatchObject({ status: 'confirmed', notes: '店頭で受け取り' })
      expect(presses).toBeLessThan(25)
    })
  },
)
