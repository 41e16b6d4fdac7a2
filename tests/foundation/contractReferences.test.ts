import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
const CITING = ['src', 'netlify', 'scripts', 'tests', 'docs', 'README.md']
const TEXT_FILE = /\.(ts|mts|mjs|js|md)$/
// why: the same pattern as `grep -rnoE "§[0-9.]+|\bD[0-9]+\b"`; a sentence's full stop is dropped
const REFERENCE = /§[0-9.]+|\bD[0-9]+\b/g

async function textFiles(entry: string): Promise<string[]> {
  const full = path.join(repoRoot, entry)
  const entries = await readdir(full, { withFileTypes: true }).catch(() => null)
  if (!entries) return TEXT_FILE.test(entry) ? [entry] : []
  const nested = await Promise.all(
    entries
      .filter((item) => item.name !== 'node_modules' && item.name !== 'generated')
      .map((item) => textFiles(path.join(entry, item.name))),
  )
  return nested.flat()
}

/** Every reference cited, with the first file citing it. */
async function citedReferences(): Promise<Map<string, string>> {
  const cited = new Map<string, string>()
  for (const file of (await Promise.all(CITING.map(textFiles))).flat()) {
    const text = await readFile(path.join(repoRoot, file), 'utf8')
    for (const [match] of text.matchAll(REFERENCE)) {
      const reference = match.replace(/\.+$/, '')
      if (!cited.has(reference)) cited.set(reference, file)
    }
  }
  return cited
}

/** `§4.8` → `s4-8`, `D7` → `d7`. */
function anchorOf(reference: string): string {
  return reference.startsWith('§')
    ? `s${reference.slice(1).replaceAll('.', '-')}`
    : reference.toLowerCase()
}

describe('docs/contract.md', () => {
  it('has a heading and an anchor for every § and D<n> the code, tests and docs cite', async () => {
    const contract = await readFile(path.join(repoRoot, 'docs/contract.md'), 'utf8')
    const cited = await citedReferences()
    expect(cited.size).toBeGreaterThan(30)
    const missing = [...cited]
      .filter(([reference]) => {
        const escaped = reference.replaceAll('.', '\\.')
        const headed = new RegExp(
          `^<a id="${anchorOf(reference)}"></a>\n\n#{2,3} ${escaped}[. ]`,
          'm',
        )
        return !headed.test(contract)
      })
      .map(([reference, file]) => `${reference} (cited in ${file})`)
    expect(missing).toEqual([])
  })

  it('is linked from the README and docs/architecture.md', async () => {
    for (const file of ['README.md', 'docs/architecture.md']) {
      const text = await readFile(path.join(repoRoot, file), 'utf8')
      expect(text, file).toMatch(/\]\((docs\/)?contract\.md\)/)
    }
  })
})
