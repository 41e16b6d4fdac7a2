import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, ConsoleMessage, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { chromiumPath, launchChromium } from '../../platform/chromium.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import {
  emptyServiceData,
  sharedService,
  SHARED_SERVICE_START_LIMIT_MS,
  type ServiceProfile,
  type SharedService,
} from './sharedService.js'

const CHROMIUM_MISSING = 'Chromium is missing: apt-get update && apt-get install -y chromium'
// why: a browser step waits on a local service that shares two cores with other test files
const BROWSER_TEST_TIMEOUT_MS = 120_000
// why: the first file of a profile waits for the browser bundles to be built and its service to
// start; then it empties the data and launches Chromium, which take seconds
const SETUP_TIMEOUT_MS = SHARED_SERVICE_START_LIMIT_MS + 60_000

/** What a browser test file works with, ready from its first test on. */
export interface ChromiumFixture {
  /** The shared service's address. */
  readonly url: string
  /** The service's project copy; its blobs are under `.netlify/local-blobs/`. */
  readonly root: string
  /** The file's own Chromium (a fresh profile), closed after its last test. */
  readonly browser: Browser
  /** The file's Resend stand-in, where the `mail` profile's service sends e-mail. */
  readonly resend: RecordingServer
  /** POSTs `body` as JSON to the service (with a Bearer token when given); status and parsed answer. */
  postJson(path: string, body: unknown, token?: string): Promise<{ status: number; body: any }>
}

/**
 * The fixture of a browser test file: the shared service of `profile` (tests/helpers/sharedService.ts),
 * emptied for this file, and a Chromium of the file's own. Its fields are there once
 * `describeInChromium(…, fixture, …)` has run its setup.
 */
export function chromiumFixture(profile: ServiceProfile): ChromiumFixture & {
  setUp(): Promise<void>
  tearDown(): Promise<void>
} {
  let service: SharedService | undefined
  let browser: Browser | undefined
  let resend: RecordingServer | undefined
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is set up in describeInChromium's beforeAll`)
    return value
  }
  return {
    get url() {
      return ready(service, 'the service').url
    },
    get root() {
      return ready(service, 'the service').root
    },
    get browser() {
      return ready(browser, 'Chromium')
    },
    get resend() {
      return ready(resend, `the Resend stand-in (the mail profile's; this file's is ${profile})`)
    },
    async postJson(path, body, token) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' }
      if (token) headers.Authorization = `Bearer ${token}`
      const response = await fetch(`${this.url}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      })
      return { status: response.status, body: await response.json() }
    },
    async setUp() {
      service = await sharedService(profile)
      await emptyServiceData(service.root)
      if (profile === 'mail') resend = await startRecordingServer({ port: service.resendPort })
      browser = await launchChromium()
    },
    async tearDown() {
      await browser?.close()
      await resend?.close()
    },
  }
}

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
 * `describe` for tests in a real Chromium against the shared service: sets `fixture` up before
 * the first test and closes the file's Chromium after the last. Without Chromium: under CI=true
 * one failing test says how to install it; elsewhere the tests are skipped and that is printed once.
 */
export function describeInChromium(
  name: string,
  fixture: ReturnType<typeof chromiumFixture>,
  body: () => void,
): void {
  if (chromiumPath()) {
    describe(name, { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
      beforeAll(() => fixture.setUp(), SETUP_TIMEOUT_MS)
      afterAll(() => fixture.tearDown())
      body()
    })
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
