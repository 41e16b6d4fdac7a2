import { readFile } from 'node:fs/promises'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium } from '../../platform/chromium.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { axeViolations } from './axeCheck.js'
import { createUnsubscribeToken } from '../../src/lib/compliance/unsubscribeToken.js'
import {
  buildDashboard,
  describeInChromium,
  loaded,
  openPage,
  openRoute,
  signIn,
} from './browserKit.js'

/**
 * Issue 23, the smaller defects of D6 that had no test, as staff see them (by text, not by
 * markup), and the timeline of a reservation and a subscription with the change kinds added
 * after the first audit trail (a personal-data export, the shopper's own unsubscribe).
 */

const ADMIN = 'small-defects-admin-token'
const SATO = 'small-defects-sato-token'
const UNSUBSCRIBE_SECRET = 'small-defects-unsubscribe-secret'
const PRODUCT = 'hario-v60-dripper'
const RESERVED = 'kyusu-tokoname'
// why: words no page holds, distinct per run, so each is its own query in the keyword log
const RUN = Date.now() % 100_000
const QUERIES = Array.from({ length: 22 }, (_, i) => `みつからない${RUN}ご${i}`)

let server: RunningDevServer
let resend: RecordingServer
let browser: Browser

describeInChromium('dashboard: the smaller defects of issue 23 (D6) and the timeline', () => {
  beforeAll(async () => {
    await buildDashboard()
    // why: the Resend stand-in; its default reply accepts every e-mail
    resend = await startRecordingServer()
    server = await startDevServer({
      ADMIN_API_TOKEN: ADMIN,
      STAFF_TOKENS: `sato:${SATO}:admin`,
      RESEND_API_KEY: 're_small_defects',
      RESEND_FROM_EMAIL: 'Shop <shop@example.jp>',
      RESEND_BASE_URL: resend.url,
      UNSUBSCRIBE_SECRET,
    })
    browser = await launchChromium()
    for (let i = 0; i < 5; i++) {
      const email = `fan${i}@example.jp`
      const answer = await server.postJson('/api/notify-signup', { email, productSlug: PRODUCT })
      expect(answer.status).toBe(200)
    }
    for (const query of QUERIES) {
      const response = await fetch(`${server.url}/api/search?q=${encodeURIComponent(query)}`)
      expect((await response.json()).totalResults).toBe(0)
    }
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await resend?.close()
  })

  it('D6: search analytics says when it shows only part of the queries', async () => {
    const { page } = await openPage(browser)
    await signIn(page, server.url, ADMIN)
    const notice = page.getByText('全 22 語のうち上位 20 語を表示', { exact: false })
    // why: the keyword log is written after each search answered; the overview is read again
    // until all 22 are counted (bounded: a log that never fills fails below)
    for (let attempt = 0; attempt < 20 && (await notice.count()) === 0; attempt++) {
      await page.waitForTimeout(250)
      await openRoute(page, '#/reservations')
      await openRoute(page, '#/overview')
    }
    expect(await notice.count()).toBeGreaterThan(0)
    const main = await page.locator('main').innerText()
    const shown = QUERIES.filter((query) => main.includes(query))
    expect(shown.length).toBe(20)
    await page.context().close()
  })

  it('D6: the history row and the progress panel agree at every moment of a send', async () => {
    const { page } = await openPage(browser)
    await signIn(page, server.url, ADMIN)
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

  it('D6: no empty card above the history on a 375 px phone', async () => {
    const { page } = await openPage(browser, 375)
    await signIn(page, server.url, ADMIN)
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

  it('each reservation and subscription shows its timeline with the newer change kinds, in Japanese', async () => {
    const reserved = await server.postJson('/api/reservation', {
      name: '履歴 花子',
      email: 'rireki@example.jp',
      productSlug: RESERVED,
    })
    expect(reserved.status).toBe(200)
    const exported = await server.postJson(
      '/api/admin/people/export',
      { email: 'rireki@example.jp' },
      SATO,
    )
    expect(exported.status).toBe(200)
    const signedUp = await server.postJson('/api/notify-signup', {
      email: 'leaving@example.jp',
      productSlug: RESERVED,
    })
    const token = createUnsubscribeToken(
      { id: signedUp.body.subscriptionId, productSlug: RESERVED },
      UNSUBSCRIBE_SECRET,
    )
    const left = await fetch(`${server.url}/api/notify-unsubscribe`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
    })
    expect(left.status).toBe(200)

    const { page } = await openPage(browser)
    await signIn(page, server.url, ADMIN)
    const timelineOf = async (hash: string, label: string) => {
      await openRoute(page, hash)
      await page.getByLabel('商品').selectOption(RESERVED)
      await loaded(page)
      await page.getByLabel(`変更履歴: ${label}`).click()
      const items = page.getByRole('row').filter({ hasText: label }).locator('.timeline li')
      await items.first().waitFor()
      return items.allInnerTexts()
    }
    const reservation = await timelineOf('#/reservations', '履歴 花子')
    expect(reservation).toEqual([expect.stringMatching(/ sato — 個人データを書き出し$/)])
    const subscription = await timelineOf('#/subscriptions', 'leaving@example.jp')
    expect(subscription).toEqual([
      expect.stringMatching(/ お客様 — ステータス変更: 「未通知」→「配信停止」$/),
    ])
    // why: what staff read names no action, actor or field by its code name
    for (const line of [...reservation, ...subscription]) {
      expect(line).not.toMatch(/export|customer|status|unsubscribed|pending/)
    }
    await page.context().close()
  })

  it('the 変更履歴 screen lists every change with who made it, filters by person, and passes axe', async () => {
    const stock = await server.postJson(
      '/api/admin/stock',
      { items: [{ productSlug: PRODUCT, quantity: 4 }] },
      SATO,
    )
    expect(stock.status).toBe(200)
    const added = await server.postJson(
      '/api/admin/search/synonyms',
      { words: ['急須', 'きゅうす'] },
      ADMIN,
    )
    expect(added.status).toBe(201)
    for (const width of [1280, 375]) {
      const { page } = await openPage(browser, width)
      await signIn(page, server.url, ADMIN)
      await page.getByRole('link', { name: '変更履歴' }).click()
      await openRoute(page, '#/audit')
      const rows = page.locator('table.audit tbody tr')
      const texts = await rows.allInnerTexts()
      expect(texts.some((text) => /sato[\s\S]*在庫数を変更[\s\S]*不明 → 4/.test(text))).toBe(true)
      expect(
        texts.some((text) => /管理用トークン[\s\S]*同義語を追加[\s\S]*急須 \/ きゅうす/.test(text)),
      ).toBe(true)
      expect(texts.join('\n')).not.toMatch(/synonym-add|stock-|settings|ADMIN_API_TOKEN/)
      await page.getByLabel('操作した人（スタッフ名）').fill('sato')
      await page.getByRole('button', { name: '絞り込む' }).click()
      await loaded(page)
      const satoRows = await rows.allInnerTexts()
      expect(satoRows.length).toBeGreaterThan(0)
      expect(satoRows.every((text) => text.includes('sato'))).toBe(true)
      expect(await axeViolations(page)).toEqual([])
      await page.context().close()
    }
  })

  it('the history CSV says how each notice was started: by hand, or which automatic wave', async () => {
    const AUTO = 'porlex-hand-grinder'
    for (const email of ['wave1@example.jp', 'wave2@example.jp']) {
      const answer = await server.postJson('/api/notify-signup', { email, productSlug: AUTO })
      expect(answer.status).toBe(200)
    }
    const auto = await server.postJson(
      '/api/admin/notify/auto',
      { productSlug: AUTO, enabled: true, emailTitle: '{product} 再入荷', emailBody: '{url}' },
      ADMIN,
    )
    expect(auto.status).toBe(200)
    const raised = await server.postJson(
      '/api/admin/stock',
      { items: [{ productSlug: AUTO, quantity: 2 }] },
      ADMIN,
    )
    expect(raised.status).toBe(200)

    const { page } = await openPage(browser)
    await signIn(page, server.url, ADMIN)
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

  it('no screen scrolls sideways on a 375 px phone (在庫, 個人データ, 検索の同義語, 変更履歴 included)', async () => {
    const { page } = await openPage(browser, 375)
    await signIn(page, server.url, ADMIN)
    const wide: string[] = []
    for (const hash of ['#/overview', '#/notices', '#/stock', '#/people', '#/search', '#/audit']) {
      await openRoute(page, hash)
      const width = await page.evaluate(() => document.documentElement.scrollWidth)
      if (width > 375) wide.push(`${hash}: ${width} px`)
    }
    expect(wide).toEqual([])
    await page.context().close()
  })
})
