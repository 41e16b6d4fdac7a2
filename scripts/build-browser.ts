/**
 * Bundles the browser code into `public/` (run by `npm run build` after the content build, whose
 * generated product catalogue the dashboard includes). One entry per page script.
 */
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
for (const { entry, outfile } of BROWSER_ENTRIES) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  })
}
const took = Math.round(performance.now() - started)
console.log(
  `build-browser: ${BROWSER_ENTRIES.map((entry) => entry.outfile).join(', ')} (${took} ms)`,
)
