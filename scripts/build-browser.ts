/**
 * Bundles the browser code into `public/` (run by `npm run build` after the content build, whose
 * generated product catalogue the dashboard includes). One entry per page script.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { build } from 'esbuild'

interface BrowserEntry {
  /** TypeScript entry under src/. */
  entry: string
  /** Bundle written under public/ (a build output, not committed). */
  outfile: string
}

const BROWSER_ENTRIES: BrowserEntry[] = [
  { entry: 'src/dashboard/main.ts', outfile: 'public/admin/app.js' },
]

const started = performance.now()
const written: string[] = []
for (const { entry, outfile } of BROWSER_ENTRIES) {
  const result = await build({
    entryPoints: [entry],
    outfile,
    write: false,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  })
  // why: a running dev server (or a test copying public/) must never read a half-written bundle
  await mkdir(dirname(outfile), { recursive: true })
  await writeFile(`${outfile}.tmp`, result.outputFiles[0].contents)
  await rename(`${outfile}.tmp`, outfile)
  written.push(`${outfile} ${(result.outputFiles[0].contents.byteLength / 1024).toFixed(1)} KB`)
}
const took = Math.round(performance.now() - started)
console.log(`build-browser: ${written.join(', ')} (${took} ms)`)
