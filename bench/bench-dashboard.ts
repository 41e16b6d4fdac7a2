/**
 * `npx tsx bench/bench-dashboard.ts [records]`: how fast the dashboard's reservation list is for a
 * large shop (default 5,000 active reservations), in the installed Chromium. The API is answered
 * by the page's request interception (no server; pages of what the dashboard asks for, with
 * `total` and `nextCursor` as the list endpoint answers them), so the figures are the browser's
 * own work: parse a page, draw it, filter the page shown as a search is typed. Run
 * `npm run build` first.
 */
import { readFile } from 'node:fs/promises'
import { launchChromium } from '../platform/chromium.js'

const COUNT = Number(process.argv[2] ?? 5000)
const ORIGIN = 'http://dashboard.bench'
const FILES: Record<string, string> = {
  '/admin/': 'public/admin/index.html',
  '/admin/app.js': 'public/admin/app.js',
  '/admin/app.css': 'public/admin/app.css',
}
const TYPES: Record<string, string> = { html: 'text/html', js: 'text/javascript', css: 'text/css' }

const reservations = Array.from({ length: COUNT }, (_, i) => ({
  id: `res_${1800000000000 - i}-${String(i).padStart(6, '0')}`,
  name: `お客様 ${i}`,
  email: `guest${i}@example.jp`,
  productSlug: ['chasen-takayama', 'kyusu-tokoname', 'mino-yaki-mug'][i % 3],
  status: ['pending', 'confirmed', 'fulfilled', 'cancelled'][i % 4],
  notes: i % 5 === 0 ? '店頭受け取り' : '',
  createdAt: new Date(Date.UTC(2026, 10, 1) - i * 60_000).toISOString(),
  respondedAt: null,
}))
const stats = { total: COUNT, byStatus: {}, byProduct: {} }

/** A page of the list as the endpoint answers it; the cursor is the next record's position. */
function listPage({
  pageSize = 50,
  cursor,
  q,
}: {
  pageSize?: number
  cursor?: string
  q?: string
}) {
  const matching = q
    ? reservations.filter((r) => `${r.id} ${r.name} ${r.email}`.includes(q.replace(/\s/g, '')))
    : reservations
  const start = cursor ? Number(cursor) : 0
  const next = start + pageSize
  return {
    success: true,
    reservations: matching.slice(start, next),
    total: matching.length,
    nextCursor: next < matching.length ? String(next) : null,
  }
}

const browser = await launchChromium()
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url())
    const file = FILES[url.pathname]
    if (file) {
      const type = TYPES[file.split('.').pop()!]
      return route.fulfill({ body: await readFile(file), contentType: type })
    }
    const body =
      url.pathname === '/api/admin-reservations-list'
        ? listPage(route.request().postDataJSON() ?? {})
        : url.pathname === '/api/admin-stats'
          ? { success: true, stats: { notify: stats, reservations: stats } }
          : { success: true, totalSearches: 0, topQueries: [], zeroResultQueries: [] }
    return route.fulfill({ json: body })
  })
  await page.goto(`${ORIGIN}/admin/`)
  await page.getByLabel('管理用トークン').fill('bench')
  await page.keyboard.press('Enter')
  await page.getByRole('navigation', { name: 'メインメニュー' }).waitFor()

  const idle = () =>
    page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0)
  const started = performance.now()
  await page.evaluate(() => (window.location.hash = '#/reservations'))
  await page.waitForFunction(
    () => document.getElementById('app')?.dataset.route === '#/reservations',
  )
  await idle()
  const openMs = performance.now() - started
  const rows = await page.locator('tbody tr').count()

  // why: timed inside the page (input handler → DOM → layout), without the driver's round trips
  const timings: number[] = []
  for (const text of ['お客様 1', 'guest42', 'お客様 4999', '']) {
    timings.push(
      await page.evaluate((value) => {
        const input = document.querySelector<HTMLInputElement>('input[type="search"]')!
        const begin = performance.now()
        input.value = value
        input.dispatchEvent(new Event('input'))
        void document.body.offsetHeight
        return performance.now() - begin
      }, text),
    )
  }
  await idle()
  const nextStarted = performance.now()
  await page.getByRole('button', { name: '次へ' }).click()
  await idle()
  const nextPageMs = performance.now() - nextStarted

  console.log(`dashboard bench: ${COUNT} active reservations, ${rows} rows drawn per page`)
  console.log(
    `  open the list (request through the driver, JSON, first page drawn): ${openMs.toFixed(0)} ms`,
  )
  console.log(
    `  search keystroke → page shown filtered and laid out: ${timings.map((ms) => ms.toFixed(0)).join(' / ')} ms`,
  )
  console.log(
    `  next page (request through the driver, JSON, page drawn): ${nextPageMs.toFixed(0)} ms`,
  )
} finally {
  await browser.close()
}
