/**
 * `npm run screenshots`: a PNG of every dashboard view, of the storefront widgets and of the
 * shoppers' pages (unsubscribe, reservation, the unit held for them, their place in the queue),
 * at desktop (1280 px) and phone (375 px) width in docs/screenshots/ (docs/dashboard.md shows
 * them), taken from the local service with sample data (and the local Resend stand-in, so the
 * progress view shows a real delivery and the hold page is opened from the e-mail's link). The
 * hold page of a LINE sign-up comes from a second service with LINE set, against the LINE
 * stand-in: the shopper signs up with LINE and opens the link of the push. Needs Debian's
 * Chromium and a Japanese font (`apt-get install -y chromium fonts-noto-cjk`).
 */
import { mkdir } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { Webhook } from 'svix'
import { launchChromium } from '../platform/chromium.js'
import { startDevServer, type RunningDevServer } from '../platform/startDevServer.js'
import { startLineStandIn } from '../platform/lineStandIn.js'
import { startRecordingServer, type RecordingServer } from '../platform/recordingServer.js'
import { createManageToken } from '../src/lib/reservations/manageLink.js'
import { createUnsubscribeToken } from '../src/lib/compliance/unsubscribeToken.js'
import { createStatusToken } from '../src/lib/subscriptions/statusLink.js'

const TOKEN = 'local-admin-token'
/** A staff member's own token (STAFF_TOKENS), so the audit trail shows a name. */
const SATO = 'local-sato-token'
const UNSUBSCRIBE_SECRET = 'screenshots-secret'
const MANAGE_SECRET = 'screenshots-manage-secret'
const RESEND_WEBHOOK_SECRET = `whsec_${Buffer.from('screenshots-resend-webhook-secret').toString('base64')}`
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

/** What the shoppers' pages need: a reservation and subscriptions to show, a unit held. */
interface Seeded {
  manageToken: string
  unsubscribeToken: string
  /** The 「入荷待ちの状況」 link of a sign-up waiting in the queue. */
  statusToken: string
  /** The link of the e-mail that offered a unit held (お取り置き), its path and query. */
  holdPath: string
}

/** The product of the sign-ups whose place in the queue is shown. */
const QUEUE_PRODUCT = 'nambu-tekki-kettle'
/** The product whose restock notice holds a unit for the person it tells. */
const HOLD_PRODUCT = 'kyusu-tokoname'
const HOLD_NOTICE = {
  productSlug: HOLD_PRODUCT,
  emailTitle: '常滑焼 急須 再入荷のお知らせ',
  emailBody: 'お待たせしました。24時間お取り置きしています。',
  holdHours: 24,
}
/** Where a message offers its unit held: `/reservation/hold?token=…`. */
const HOLD_LINK = /\/reservation\/hold\?token=[A-Za-z0-9._~%-]+/

/** Waits until `find` finds the hold link in what a stand-in received (the delivery runs after the send's answer). */
async function holdLinkIn(find: () => unknown[]): Promise<string> {
  for (let tries = 0; tries < 600; tries++) {
    for (const item of find()) {
      const found = JSON.stringify(item).match(HOLD_LINK)
      if (found) return found[0]
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('No message with a hold link arrived within 60 s')
}

async function seed(server: RunningDevServer, resend: RecordingServer): Promise<Seeded> {
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
        status === 'confirmed' ? SATO : TOKEN,
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
  await server.postJson(
    '/api/admin/stock',
    {
      items: [
        { productSlug: 'hario-v60-dripper', quantity: 0 },
        { productSlug: 'chasen-takayama', quantity: 8 },
        { productSlug: 'kyusu-tokoname', quantity: 3 },
      ],
    },
    SATO,
  )
  await server.postJson(
    '/api/admin/notify/auto',
    {
      productSlug: 'hario-v60-dripper',
      enabled: true,
      emailTitle: '{product} 再入荷のお知らせ',
      emailBody: 'お待たせしました。{url} からご購入いただけます。',
      perUnit: 2,
      intervalMinutes: 60,
    },
    SATO,
  )
  await server.postJson('/api/admin/search/synonyms', { words: ['茶筅', 'ちゃせん', '茶筌'] }, SATO)
  await server.postJson('/api/admin/people/export', { email: '1-guest@example.jp' }, TOKEN)
  await bounce(server, 'fan11@example.jp')
  const porlex = await server.postJson(
    '/api/admin-notify-list',
    { productSlug: 'porlex-hand-grinder' },
    TOKEN,
  )
  const [waiting] = porlex.body.subscriptions
  // why: a product no notice of the run is sent for, so its sign-ups keep their place
  for (let i = 0; i < 5; i++) {
    await server.postJson('/api/notify-signup', {
      email: `queue${i}@example.jp`,
      productSlug: QUEUE_PRODUCT,
    })
  }
  const queue = await server.postJson(
    '/api/admin-notify-list',
    { productSlug: QUEUE_PRODUCT },
    TOKEN,
  )
  // the third of five, newest first: 3 番目（入荷待ち 5 人）
  const queued = queue.body.subscriptions[2]
  await server.postJson('/api/notify-signup', {
    email: 'hold@example.jp',
    productSlug: HOLD_PRODUCT,
  })
  await server.postJson('/api/admin/notify/send', HOLD_NOTICE, SATO)
  return {
    statusToken: createStatusToken(
      { id: queued.id, productSlug: queued.productSlug },
      UNSUBSCRIBE_SECRET,
      Date.now(),
    ),
    holdPath: await holdLinkIn(() => resend.requests.map((request) => request.json)),
    manageToken: createManageToken(
      { id: ids[0], productSlug: 'chasen-takayama' },
      MANAGE_SECRET,
      Date.now(),
    ),
    unsubscribeToken: createUnsubscribeToken(
      { id: waiting.id, productSlug: waiting.productSlug },
      UNSUBSCRIBE_SECRET,
    ),
  }
}

/** A hard bounce reported by the Resend webhook, so the suppression list has an entry. */
async function bounce(server: RunningDevServer, to: string): Promise<void> {
  const body = JSON.stringify({
    type: 'email.bounced',
    created_at: new Date().toISOString(),
    data: { email_id: crypto.randomUUID(), to: [to], bounce: { type: 'Permanent' } },
  })
  const id = `msg_${crypto.randomUUID()}`
  const at = new Date()
  await fetch(`${server.url}/api/resend-webhook`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'svix-id': id,
      'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
      'svix-signature': new Webhook(RESEND_WEBHOOK_SECRET).sign(id, at, body),
    },
    body,
  })
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

/** A page of its own (fresh session) at `width`, in Japanese and Japan time. */
async function newPage(browser: Browser, width: keyof typeof WIDTHS): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: WIDTHS[width], height: 800 },
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
  })
  return context.newPage()
}

async function views(browser: Browser, server: RunningDevServer, width: keyof typeof WIDTHS) {
  const page = await newPage(browser, width)
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

  await go(page, '#/reservations')
  await page.getByLabel('商品').selectOption('chasen-takayama')
  await page.getByLabel('変更履歴: 山田 花子').click()
  await page.locator('.timeline li').first().waitFor()
  await shoot(page, 'reservation-timeline', width)
  await go(page, '#/reservations/preorders')
  await shoot(page, 'reservations-preorders', width)
  await go(page, '#/stock')
  await shoot(page, 'stock', width)
  await go(page, '#/search')
  await shoot(page, 'synonyms', width)
  await go(page, '#/people')
  await page.getByLabel('メールアドレス').first().fill('1-guest@example.jp')
  await page.getByRole('button', { name: '開示する' }).click()
  await page.getByRole('button', { name: 'JSON をダウンロード' }).waitFor()
  await shoot(page, 'personal-data', width)
  await page.locator('table.suppressions').scrollIntoViewIfNeeded()
  await shoot(page, 'suppressions', width, false)
  await go(page, '#/audit')
  await shoot(page, 'audit', width)
  await page.context().close()
}

/** The storefront widgets (the demo page) and the shoppers' own pages. */
async function shopperPages(
  browser: Browser,
  server: RunningDevServer,
  width: keyof typeof WIDTHS,
  seeded: Seeded,
) {
  const page = await newPage(browser, width)
  await page.goto(`${server.url}/demo/`)
  await page.locator('shop-notify').first().waitFor()
  await page.waitForLoadState('networkidle')
  await page.screenshot({ path: `${OUT}/widgets-${width}.png`, fullPage: true })
  const unsubscribe = `/api/notify-unsubscribe?token=${encodeURIComponent(seeded.unsubscribeToken)}`
  await page.goto(`${server.url}${unsubscribe}`)
  await page.screenshot({ path: `${OUT}/unsubscribe-${width}.png`, fullPage: true })
  const manage = `/reservation/manage?token=${encodeURIComponent(seeded.manageToken)}`
  await page.goto(`${server.url}${manage}`)
  await page.screenshot({ path: `${OUT}/reservation-manage-${width}.png`, fullPage: true })
  await page.goto(`${server.url}${seeded.holdPath}`)
  await page.getByRole('heading', { name: 'お取り置き中の商品' }).waitFor()
  await page.screenshot({ path: `${OUT}/hold-${width}.png`, fullPage: true })
  await page.goto(`${server.url}/notify/status?token=${encodeURIComponent(seeded.statusToken)}`)
  await page.screenshot({ path: `${OUT}/queue-status-${width}.png`, fullPage: true })
  await page.context().close()
}

/**
 * The hold page of a shopper who signed up with LINE (friends with the shop's account), opened
 * from the link of the push: a service of its own with LINE set, against the LINE stand-in.
 */
async function lineHoldPage(browser: Browser, resend: RecordingServer): Promise<void> {
  const line = await startLineStandIn({
    loginChannelId: '1234567890',
    loginChannelSecret: 'screenshots-line-login-secret',
  })
  const server = await startDevServer({
    ADMIN_API_TOKEN: TOKEN,
    RESEND_API_KEY: 're_screenshots',
    RESEND_FROM_EMAIL: 'Shop <shop@example.jp>',
    RESEND_BASE_URL: resend.url,
    UNSUBSCRIBE_SECRET,
    LINE_LOGIN_CHANNEL_ID: '1234567890',
    LINE_LOGIN_CHANNEL_SECRET: 'screenshots-line-login-secret',
    LINE_MESSAGING_CHANNEL_ACCESS_TOKEN: 'screenshots-line-token',
    LINE_MESSAGING_CHANNEL_SECRET: 'screenshots-line-secret',
    LINE_API_BASE_URL: line.url,
    LINE_LOGIN_BASE_URL: line.url,
  })
  try {
    // the shopper signs up with LINE and adds the shop's account (the stand-in logs in at once)
    let next = `${server.url}/api/line/login?productSlug=${HOLD_PRODUCT}`
    for (let hop = 0; hop < 2; hop++) {
      const response = await fetch(next, { redirect: 'manual' })
      next = new URL(response.headers.get('location')!, next).href
    }
    const signedUp = await fetch(next)
    if (!signedUp.ok) throw new Error(`The LINE sign-up answered HTTP ${signedUp.status}`)
    await server.postJson(
      '/api/admin/stock',
      { items: [{ productSlug: HOLD_PRODUCT, quantity: 2 }] },
      TOKEN,
    )
    await server.postJson('/api/admin/notify/send', HOLD_NOTICE, TOKEN)
    const holdPath = await holdLinkIn(() => line.pushes.map((push) => push.messages))
    for (const width of Object.keys(WIDTHS) as (keyof typeof WIDTHS)[]) {
      const page = await newPage(browser, width)
      await page.goto(`${server.url}${holdPath}`)
      await page.getByRole('heading', { name: 'お取り置き中の商品' }).waitFor()
      await page.getByText('ご連絡はLINEでお送りします。').waitFor()
      await page.screenshot({ path: `${OUT}/hold-line-${width}.png`, fullPage: true })
      await page.context().close()
    }
  } finally {
    await server.stop()
    await line.close()
  }
}

const resend = await startRecordingServer()
const server = await startDevServer({
  ADMIN_API_TOKEN: TOKEN,
  STAFF_TOKENS: `sato:${SATO}:admin+preorder`,
  RESERVATION_LINK_SECRET: MANAGE_SECRET,
  RESEND_WEBHOOK_SECRET,
  RESEND_API_KEY: 're_screenshots',
  RESEND_FROM_EMAIL: 'Shop <shop@example.jp>',
  RESEND_BASE_URL: resend.url,
  UNSUBSCRIBE_SECRET,
})
const browser = await launchChromium()
try {
  await mkdir(OUT, { recursive: true })
  const seeded = await seed(server, resend)
  for (const width of Object.keys(WIDTHS) as (keyof typeof WIDTHS)[]) {
    await views(browser, server, width)
    await shopperPages(browser, server, width, seeded)
  }
  await lineHoldPage(browser, resend)
  console.log(`screenshots: written to ${OUT}/`)
} finally {
  await browser.close()
  await server.stop()
  await resend.close()
}
