import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { SATO_TOKEN } from '../helpers/sharedService.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

/**
 * A note staff choose to tell the customer, in a real Chromium with real delivery to a Resend
 * stand-in: the choice survives 保存, the row says the note goes with the next e-mail, and the
 * next status e-mail carries it. axe-core in a light and a dark colour scheme of the browser.
 */

const ADMIN = ADMIN_TOKEN
const SATO = SATO_TOKEN
const NOTES = 'chasen-takayama'
const NOTES_TITLE = '高山 茶筅 Takayama 百本立'

const server = chromiumFixture('mail')

async function reserve(name: string, productSlug: string): Promise<string> {
  const email = `guest-${crypto.randomUUID().slice(0, 8)}@example.jp`
  const answer = await server.postJson('/api/reservation', { name, email, productSlug })
  expect(answer.status).toBe(200)
  return answer.body.reservationId
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

/** The texts of the e-mails the service sent one at a time, whose subject holds `subject`. */
function mailedTexts(subject: string): string[] {
  return server.resend.requests
    .filter((request) => request.path === '/emails')
    .map((request) => request.json as { subject: string; text: string })
    .filter((email) => email.subject.includes(subject))
    .map((email) => email.text)
}

describeInChromium('a note staff share reaches the customer', server, () => {
  it('the share-note tick survives 保存, the row says the note goes with the next e-mail, and 確定 sends it', async () => {
    const id = await reserve('伝える 花子', NOTES)
    const note = '1 月 25 日から店頭でお渡しします。'
    const { page } = await openPage(server.browser)
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
      .poll(() => mailedTexts(`【ご予約確定】${NOTES_TITLE}`).length, { timeout: 20_000 })
      .toBe(1)
    expect(mailedTexts(`【ご予約確定】${NOTES_TITLE}`)[0]).toContain(note)
    await expectReadable(page)
    await page.context().close()
  })
})
