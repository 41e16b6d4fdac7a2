import { readFile } from 'node:fs/promises'
import { beforeAll, expect, it } from 'vitest'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

/**
 * The 再入荷通知 screen's history of notices, with real delivery to a Resend stand-in: the history
 * row and the progress panel agree at every moment of a send, no empty card above the history on
 * a phone, and the history CSV says how each notice was started.
 */

const PRODUCT = 'hario-v60-dripper'

const shop = chromiumFixture('mail')

describeInChromium('the history of restock notices', shop, () => {
  beforeAll(async () => {
    for (let i = 0; i < 5; i++) {
      const email = `fan${i}@example.jp`
      const answer = await shop.postJson('/api/notify-signup', { email, productSlug: PRODUCT })
      expect(answer.status).toBe(200)
    }
  })

  it('the history row and the progress panel agree at every moment of a send', async () => {
    const { page } = await openPage(shop.browser)
    await signIn(page, shop.url, ADMIN_TOKEN)
    await openRoute(page, '#/notices')
    await page.getByLabel('商品').selectOption(PRODUCT)
    await loaded(page)
    await page.getByLabel('件名').fill('再入荷のお知らせ')
    await page.getByLabel('本文').fill('入荷しました。')
    await page.getByRole('button', { name: '送信内容を確認' }).click()
    await page.getByRole('button', { name: '5 人に送信する' }).click()

    // why: both read in one evaluation, so no update can fall between the two readings
    const readBoth = () =>
      page.evaluate(() => {
        const progress = document.querySelector('.progress')
        const row = document.querySelector('table.history tbody tr')
        const cell = (label: string) =>
          row?.querySelector(`td[data-label="${label}"]`)?.textContent ?? null
        return {
          state: progress?.querySelector('[data-field="state"]')?.textContent ?? null,
          sent: progress?.querySelector('[data-field="sent"]')?.textContent ?? null,
          rowState: cell('状態'),
          rowSent: cell('送信済み'),
        }
      })
    const seen: Awaited<ReturnType<typeof readBoth>>[] = []
    for (let poll = 0; poll < 250 && seen.at(-1)?.state !== '配信完了'; poll++) {
      const both = await readBoth()
      if (both.state !== null && both.rowState !== null) seen.push(both)
      await page.waitForTimeout(100)
    }
    expect(seen.at(-1)?.state).toBe('配信完了')
    for (const both of seen) {
      expect(`${both.rowSent} 人`).toBe(both.sent)
      expect(both.rowState?.startsWith('完了')).toBe(both.state === '配信完了')
    }
    expect(seen.at(-1)).toMatchObject({ sent: '5 人', rowSent: '5' })
    await page.context().close()
  })

  it('no empty card above the history on a 375 px phone', async () => {
    const { page } = await openPage(shop.browser, 375)
    await signIn(page, shop.url, ADMIN_TOKEN)
    await openRoute(page, '#/notices')
    await page.getByLabel('商品').selectOption(PRODUCT)
    await loaded(page)
    await page.locator('table.history tbody tr').first().waitFor()
    // why: a card is a box drawn with a border; one with nothing to read or use is empty
    const empty = await page.evaluate(() =>
      [...document.querySelectorAll('main *')]
        .filter((node) => {
          const box = node.getBoundingClientRect()
          const style = getComputedStyle(node)
          const bordered = ['Top', 'Bottom'].every(
            (side) => parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) > 0,
          )
          const usable = node.matches('input, select, textarea, button, iframe, progress, img')
          const holds = node.querySelector('input, select, textarea, button, iframe, progress, img')
          return (
            bordered &&
            box.height > 0 &&
            style.visibility !== 'hidden' &&
            !usable &&
            !holds &&
            (node as HTMLElement).innerText.trim() === ''
          )
        })
        .map(
          (node) =>
            `${node.tagName.toLowerCase()}.${node.className} in ${node.parentElement?.tagName}`,
        ),
    )
    expect(empty).toEqual([])
    await page.context().close()
  })

  it('the history CSV says how each notice was started: by hand, or which automatic wave', async () => {
    const AUTO = 'porlex-hand-grinder'
    for (const email of ['wave1@example.jp', 'wave2@example.jp']) {
      const answer = await shop.postJson('/api/notify-signup', { email, productSlug: AUTO })
      expect(answer.status).toBe(200)
    }
    const auto = await shop.postJson(
      '/api/admin/notify/auto',
      { productSlug: AUTO, enabled: true, emailTitle: '{product} 再入荷', emailBody: '{url}' },
      ADMIN_TOKEN,
    )
    expect(auto.status).toBe(200)
    const raised = await shop.postJson(
      '/api/admin/stock',
      { items: [{ productSlug: AUTO, quantity: 2 }] },
      ADMIN_TOKEN,
    )
    expect(raised.status).toBe(200)

    const { page } = await openPage(shop.browser)
    await signIn(page, shop.url, ADMIN_TOKEN)
    await openRoute(page, '#/notices')
    await page.getByText('自動通知・第 1 波（在庫 2）').waitFor()
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV を書き出す' }).click(),
    ])
    const rows = (await readFile((await download.path())!))
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(rows[0].split(',').at(-1)).toBe('送信のきっかけ')
    const byProduct = (title: string) => rows.find((row) => row.includes(title))
    expect(byProduct('HARIO V60')?.split(',').at(-1)).toBe('手動')
    expect(byProduct('Porlex')?.split(',').at(-1)).toBe('自動通知・第 1 波（在庫 2）')
    await page.context().close()
  })
})
