/**
 * Bundles the browser code with esbuild: each entry below becomes one ES module under `public/`
 * (build output, not committed). Run: `tsx scripts/build-browser.ts` (part of `npm run build`).
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** A browser bundle: TypeScript entry → file served from `public/`. */
export interface BrowserEntry {
  entry: string
  outFile: string
}

export const BROWSER_ENTRIES: BrowserEntry[] = [
  // The storefront widgets: <shop-reserve>, <shop-notify>, <shop-search> (README "Storefront widgets")
  { entry: 'src/widget/shopWidget.ts', outFile: 'public/widget/shop-widget.js' },
]

async function main(): Promise<void> {
  for (const { entry, outFile } of BROWSER_ENTRIES) {
    const result = await build({
      entryPoints: [path.join(REPO_ROOT, entry)],
      outfile: path.join(REPO_ROOT, outFile),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      // why: custom elements and private class fields work natively in every browser since 2021
      target: 'es2022',
      minify: true,
      metafile: true,
      logLevel: 'warning',
    })
    const bytes = Object.values(result.metafile.outputs)[0]?.bytes ?? 0
    console.log(`${outFile}: ${(bytes / 1024).toFixed(1)} KB from ${entry}`)
  }
}

await main()
