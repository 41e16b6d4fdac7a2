/**
 * Bundles the browser code into `public/` (run by `npm run build` after the content build, whose
 * generated product catalogue the dashboard includes). One entry per page script; the bundles are
 * build output, not committed.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { build } from 'esbuild'

interface BrowserEntry {
  /** TypeScript entry under src/. */
  entry: string
  /** Bundle written under public/. */
  outfile: string
  /** `iife` for a page's own script, `esm` for a module other sites load with `type="module"`. */
  format: 'iife' | 'esm'
}

const BROWSER_ENTRIES: BrowserEntry[] = [
  // The admin dashboard at /admin/ (README "Admin dashboard")
  { entry: 'src/dashboard/main.ts', outfile: 'public/admin/app.js', format: 'iife' },
  // The storefront widgets: <shop-reserve>, <shop-notify>, <shop-search> (README "Storefront widgets")
  // why: a classic (IIFE) bundle runs as `<script src>` and as `<script type="module" src>` alike
  { entry: 'src/widget/shopWidget.ts', outfile: 'public/widget/shop-widget.js', format: 'iife' },
]

const started = performance.now()
const written: string[] = []
for (const { entry, outfile, format } of BROWSER_ENTRIES) {
  const result = await build({
    entryPoints: [entry],
    outfile,
    write: false,
    bundle: true,
    format,
    platform: 'browser',
    // why: custom elements, private class fields and <dialog> work natively in these and later
    target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  })
  // why: a running dev server (or a test copying public/) must never read a half-written bundle,
  // and two builds at once (test files in parallel) must not take each other's temporary file
  await mkdir(dirname(outfile), { recursive: true })
  const temporary = `${outfile}.${process.pid}.tmp`
  await writeFile(temporary, result.outputFiles[0].contents)
  await rename(temporary, outfile)
  written.push(`${outfile} ${(result.outputFiles[0].contents.byteLength / 1024).toFixed(1)} KB`)
}
const took = Math.round(performance.now() - started)
console.log(`build-browser: ${written.join(', ')} (${took} ms)`)
