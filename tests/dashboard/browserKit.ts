import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { Browser, ConsoleMessage, Page } from 'playwright-core'
import { describe, it } from 'vitest'
import { chromiumPath } from '../../platform/chromium.js'

const CHROMIUM_MISSING = 'Chromium is missing: apt-get update && apt-get install -y chromium'
const PROJECT_ROOT = resolve(import.meta.dirname, '../..')
// why: a browser step waits on a dev server that shares two cores with other test files
const BROWSER_TEST_TIMEOUT_MS = 120_000

/** Prints the skip notice once per `vitest` run (every test file runs in a child of the same process). */
function noticeOnce(): void {
  try {
    writeFileSync(join(tmpdir(), `chromium-missing-${process.ppid}`), '', { flag: 'wx' })
    console.warn(`${CHROMIUM_MISSING} (browser tests skipped)`)
  } catch {
    // why: another test file of this run printed it already
  }
}

/**
 * `describe` for tests in a real Chromium. Without Chromium: under CI=true one failing test says
 * how to install it; elsewhere the tests are skipped and that is printed once.
 */
export function describeInChromium(name: string, body: () => void): void {
  if (chromiumPath()) {
    describe(name, { timeout: BROWSER_TEST_TIMEOUT_MS }, body)
  } else if (process.env.CI === 'true') {
    describe(name, () => {
      it('needs Chromium', () => {
        throw new Error(CHROMIUM_MISSING)
      })
    })
  } else {
    noticeOnce()
    describe.skip(name, body)
  }
}

/** Bundles the dashboard (public/admin/app.js) as `npm run build` does, for a test run on its own. */
export async function buildDashboard(): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    [join(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/build-browser.ts'],
    { cwd: PROJECT_ROOT },
  )
}

/** What a page reported: console errors and uncaught exceptions. */
export interface PageProblems {
  consoleErrors: string[]
  pageErrors: string[]
}

/** A fresh page (own session storage) at `width`, recording its console errors and exceptions. */
export async function openPage(
  browser: Browser,
  width = 1280,
): Promise<{ page: Page; problems: PageProblems }> {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    acceptDownloads: true,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
  })
  const page = await context.newPage()
  const problems: PageProblems = { consoleErrors: [], pageErrors: [] }
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => problems.pageErrors.push(String(error)))
  return { page, problems }
}

/** Signs in through the form, with the keyboard, and waits for the overview. */
export async function signIn(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/admin/`)
  await page.getByLabel('管理用トークン').fill(token)
  await page.keyboard.press('Enter')
  await page.getByRole('navigation', { name: 'メインメニュー' }).waitFor()
}

/** Opens a dashboard route and waits until its lists have loaded. */
export async function openRoute(page: Page, hash: string): Promise<void> {
  await page.evaluate((target) => (window.location.hash = target), hash)
  await page.waitForFunction(
    (target) =>
      document.getElementById('app')?.dataset.route === target &&
      document.querySelectorAll('[aria-busy="true"]').length === 0,
    hash,
  )
}

/** Waits until no list of the page is loading. */
export async function loaded(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0)
}
