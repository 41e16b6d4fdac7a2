import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

const DEFAULT_PATH = '/usr/bin/chromium'
const MISSING = 'Chromium is missing: apt-get update && apt-get install -y chromium'

/** The Chromium binary to test with (`CHROMIUM_PATH`, else Debian's), or null when absent. */
export function chromiumPath(): string | null {
  const candidate = process.env.CHROMIUM_PATH || DEFAULT_PATH
  return existsSync(candidate) ? candidate : null
}

/**
 * Starts a headless Chromium with a fresh profile (Playwright's own temporary user data dir) and
 * nothing that reaches the network on its own. Throws with the install command when absent.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath()
  if (!executablePath) throw new Error(MISSING)
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
