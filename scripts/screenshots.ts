/**
 * `npm run screenshots`: a PNG of every dashboard view at desktop (1280 px) and phone (375 px)
 * width in docs/screenshots/, taken from the local service with sample data (and the local Resend
 * stand-in, so the progress view shows a real delivery). Needs Debian's Chromium and a Japanese
 * font (`apt-get install -y chromium fonts-noto-cjk`).
 */
import { mkdir } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../platform/chromium.js'
import { startDevServer, type RunningDevServer } from '../platform/startDevServer.js'
import { startRecordingServer } from '../platform/recordingServer.js'

const TOKEN = 'local-admin-token'
const OUT = 'docs/screenshots'
const WIDTHS = { desktop: 1280, phone: 375 } as const

const RESERVATIONS: [string, string, string, string?][] = [
  ['山田 花子', 'chasen-takayama', 'confirmed', '土曜日に店頭受け取り'],
  ['佐藤 次郎', 'chasen-takayama', 'pending'],
  ['鈴木 三郎', 'kyusu-tokoname', 'fulfilled', '発送済み（追跡番号 1234-5678）'],
  ['高橋 美咲', 'nambu-tekki-kettle', 'pending'],
  ['田中 一郎', 'nambu-tekki-kettle', 'cancelled', 'お客様都合によりキャンセル'],
  ['伊藤 さくら', 'hario-v60-dripper', 'pending'],
]

async function seed(server: RunningDevServer): Promise<void> {
  const ids: string[] = []
  for (const [name, productSlug, status, notes] of RESERVATIONS) {
    const email = `${ids.length + 1}-guest@example.jp`
    const created = await server.postJson('/api/reservation', { name, email, productSlug })
    const id = created.body.reservationId as string
    ids.push(id)
    if (status === 'fulfilled') {
      await server.postJson(
        '/api/admin-reservations-status',
        { id, productSlug, status: 'confirmed' },
        TOKEN,
      )
    }
    if (status !== 'pending' || notes) {
      await server.postJson(
        '/api/admin-reservations-status',
        { id, productSlug, status, notes },
        TOKEN,
      )
    }
  }
  await server.postJson(
    '/api/admin/reservations/archive',
    { ids: [{ id: ids[4], productSlug: 'nambu-tekki-kettle' }] },
    TOKEN,
  )
  for (let i = 0; i < 14; i++) {
    const productSlug = i < 12 ? 'hario-v60-dripper' : 'porlex-hand-grinder'
    await server.postJson('/api/notify-signup', { email: `fan${i}@example.jp`, productSlug })
  }
  const hario = await server.postJson(
    '/api/admin-notify-list',
    { productSlug: 'hario-v60-dripper' },
    TOKEN,
  )
  const [oldest] = hario.body.subscriptions.slice(-1)
  await server.postJson(
    '/api/admin/notify/archive',
    { ids: [{ id: oldest.id, productSlug: oldest.productSlug }] },
    TOKEN,
  )
  for (const q of ['入荷', '急須', '抹茶', '入荷', 'ドリッパー', 'カップラーメン']) {
    await fetch(`${server.url}/api/search?q=${encodeURIComponent(q)}`)
  }
}

async function shoot(
  page: Page,
  name: string,
  width: keyof typeof WIDTHS,
  fullPage = true,
): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0)
  await page.screenshot({ path: `${OUT}/${name}-${width}.png`, fullPage })
}

async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate((target) => (window.location.hash = target), hash)
  await page.waitForFunction(
    (target) => document.getElementById('app')?.dataset.route === target,
    hash,
  )
}

async function views(browser: Browser, server: RunningDevServer, width: keyof typeof WIDTHS) {
  const context = await browser.newContext({
    viewport: { width: WIDTHS[width], height: 800 },
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
  })
  const page = await context.newPage()
  await page.goto(`${server.url}/admin/`)
  await page.getByLabel('管理用トークン').fill('wrong-token')
  await page.keyboard.press('Enter')
  await page.getByText('トークンが正しくありません。').waitFor()
  await shoot(page, 'sign-in', width)
  await page.getByLabel('管理用トークン').fill(TOKEN)
  await page.keyboard.press('Enter')
  await page.getByRole('navigation', { name: 'メインメニュー' }).waitFor()
  await shoot(page, 'overview', width)
  for (const [hash, name] of [
    ['#/reservations', 'reservations'],
    ['#/reservations/archive', 'reservations-archive'],
    ['#/subscriptions', 'subscriptions'],
    ['#/subscriptions/archive', 'subscriptions-archive'],
  ]) {
    await go(page, hash)
    await shoot(page, name, width)
  }
  await go(page, '#/notices')
  await page
    .getByLabel('商品')
    .selectOption(width === 'desktop' ? 'hario-v60-dripper' : 'porlex-hand-grinder')
  await page.getByLabel('件名').fill('再入荷のお知らせ')
  await page
    .getByLabel('本文')
    .fill('お待たせしました。本日再入荷しました。\n数量限定のため、お早めにどうぞ。')
  await page.getByText(/送信対象: \d+ 人/).waitFor()
  await shoot(page, 'notice-preview', width)
  await page.getByRole('button', { name: '送信内容を確認' }).click()
  // why: a modal's backdrop covers the viewport only; a full-page picture would look half-dimmed
  await shoot(page, 'notice-confirm', width, false)
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /人に送信する/ })
    .click()
  await page.locator('[data-field="state"]', { hasText: '配信完了' }).waitFor({ timeout: 60_000 })
  await page.waitForFunction(() =>
    document.querySelector('table.history td[data-label="状態"]')?.textContent?.startsWith('完了'),
  )
  await shoot(page, 'notice-progress', width)
  await context.close()
}

const resend = await startRecordingServer()
const server = await startDevServer({
  ADMIN_API_TOKEN: TOKEN,
  RESEND_API_KEY: 're_screenshots',
  RESEND_FROM_EMAIL: 'Shop <shop@example.jp>',
  RESEND_BASE_URL: resend.url,
  UNSUBSCRIBE_SECRET: 'screenshots-secret',
})
const browser = await launchChromium()
try {
  await mkdir(OUT, { recursive: true })
  await seed(server)
  for (const width of Object.keys(WIDTHS) as (keyof typeof WIDTHS)[]) {
    await views(browser, server, width)
  }
  console.log(`screenshots: written to ${OUT}/`)
} finally {
  await browser.close()
  await server.stop()
  await resend.close()
}
