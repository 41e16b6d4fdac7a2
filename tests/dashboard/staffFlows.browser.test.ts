import type { Page } from 'playwright-core'
import { beforeAll, expect, it } from 'vitest'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { SATO_TOKEN, SUZUKI_TOKEN, TANAKA_TOKEN } from '../helpers/sharedService.js'
import { ADMIN_TOKEN, PREORDER_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

/**
 * Staff doing their whole job in a real Chromium: one named token per person with the groups
 * their job needs; axe-core on each screen, in a light and a dark colour scheme of the browser.
 */

const ADMIN = ADMIN_TOKEN
const PREORDER = PREORDER_TOKEN
const SATO = SATO_TOKEN
const SUZUKI = SUZUKI_TOKEN
const TANAKA = TANAKA_TOKEN
const ARCHIVING = 'mino-yaki-mug'

const server = chromiumFixture('archiveToken')

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

describeInChromium('staff do their whole job in the dashboard', server, () => {
  beforeAll(async () => {})

  it('sato signs in once, sees their name, archives and restores with no second token; the audit names sato', async () => {
    const id = await reserve('佐藤 保管', ARCHIVING)
    const { page, problems } = await openPage(server.browser)
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
      const { page, problems } = await openPage(server.browser, width)
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
    const { page } = await openPage(server.browser)
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
})
