import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium (`apt-get install -y chromium`), or CHROMIUM_PATH; null when neither exists. */
export function chromiumPath(): string | null {
  const candidate = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
  return existsSync(candidate) ? candidate : null
}

/**
 * The installed Chromium, headless, driven by playwright-core (no browser download), with nothing
 * that talks to the network by itself. playwright's `launch` gives every browser a fresh temporary
 * profile (it refuses a `--user-data-dir` argument).
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath()
  if (!executablePath) {
    throw new Error('Chromium is missing: apt-get update && apt-get install -y chromium')
  }
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
