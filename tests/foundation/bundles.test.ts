import { describe, expect, it } from 'vitest'
import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'

/** The function as Netlify's esbuild bundler would produce it (in memory). */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../../netlify/functions/${entry}`, import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0].text
}

// why: every page of the site is packed under its id; a page id in a bundle means the whole
// search content (megabytes on a large site) is parsed at that function's cold start
const PAGE_ID = '"news/yoyaku-shohin-nyuka"'

describe('function bundles', () => {
  it('carry the search content in the search function only', async () => {
    expect(await bundle('search.ts')).toContain(PAGE_ID)
    for (const entry of ['reservation.ts', 'notify-signup.ts', 'notify-unsubscribe.ts']) {
      const code = await bundle(entry)
      expect(code).toContain('"chasen-takayama"')
      expect(code).not.toContain(PAGE_ID)
    }
  }, 60_000)
})
