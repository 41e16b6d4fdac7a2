import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
const functionsDir = path.join(repoRoot, 'netlify/functions')

/**
 * The npm packages a function loads when it starts, as Netlify packages it: our code bundled,
 * every package left outside (esbuild with `packages: 'external'`, as zip-it-and-ship-it does for
 * v2 functions), so each static import of a package is loaded at every cold start.
 */
async function packagesImported(entry: string) {
  const result = await build({
    entryPoints: [path.join(functionsDir, entry)],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const output = Object.values(result.metafile.outputs)[0]
  const external = output.imports.filter((item) => item.external && !item.path.startsWith('node:'))
  return {
    atStart: external.filter((item) => item.kind === 'import-statement').map((item) => item.path),
    later: external.filter((item) => item.kind === 'dynamic-import').map((item) => item.path),
    /** Our files bundled into the function (parsed at every cold start). */
    bundled: Object.keys(output.inputs),
  }
}

describe('what a function loads at a cold start', () => {
  it('is never zod from node_modules (191 files) nor the Resend SDK', async () => {
    const entries = (await readdir(functionsDir)).filter((file) => file.endsWith('.ts'))
    expect(entries.length).toBeGreaterThan(10)
    for (const entry of entries) {
      const { atStart } = await packagesImported(entry)
      expect(atStart, entry).not.toContain('zod')
      expect(atStart, entry).not.toContain('resend')
    }
  }, 60_000)

  it('loads Resend when the form function first sends an e-mail', async () => {
    const { atStart, later } = await packagesImported('reservation.ts')
    expect(later).toContain('resend')
    expect(atStart).toContain('@netlify/blobs')
  }, 60_000)

  it('the search and suggest functions bundle the search code, not records, e-mail or zod', async () => {
    // why: a shopper waits for this parse on a cold start; the whole service layer was ~500 KB
    for (const entry of ['search.ts', 'search-suggest.ts']) {
      const { bundled } = await packagesImported(entry)
      const heavy = bundled.filter((file) =>
        /src\/lib\/(services|storage\/(repositories|recordCollection|listing\/)|notifiers\/|audit\/auditTrail)|src\/generated\/zod/.test(
          file,
        ),
      )
      expect(heavy, entry).toEqual([])
    }
  }, 60_000)
})
