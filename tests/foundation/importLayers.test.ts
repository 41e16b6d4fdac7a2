import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The imports of the runtime run down (docs/architecture.md "Layers"): no two files import each
 * other in a loop, and no two parts of `src/lib/` (its folders and top-level files) do either,
 * so the parts stand in layers where every import points to a lower one. Read from the source
 * text (`import … from`, `export … from`, `import()` of a relative path; types included).
 */

const ROOT = path.resolve(import.meta.dirname, '../..')
const SOURCES = ['src/lib', 'src/dashboard', 'src/widget', 'netlify']

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(relative)
    return /\.ts$/.test(entry.name) ? [relative] : []
  })
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g

/** Every relative import of the runtime's files that names another of them: [from, to]. */
function importsOf(files: readonly string[]): [string, string][] {
  const known = new Set(files)
  return files.flatMap((file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8')
    return [...text.matchAll(IMPORT)].flatMap((match): [string, string][] => {
      const target = path.join(path.dirname(file), match[1] ?? match[2]).replace(/\.js$/, '.ts')
      return known.has(target) && existsSync(path.join(ROOT, target)) ? [[file, target]] : []
    })
  })
}

/** The part of `src/lib/` a file belongs to: its folder, or the file itself at the top. */
function partOf(file: string): string | null {
  if (!file.startsWith('src/lib/')) return null
  const [first, second] = file.slice('src/lib/'.length).split('/')
  return second === undefined ? first : `${first}/`
}

/** Loops of the graph (Tarjan's strongly connected components of more than one node). */
function loopsOf(edges: readonly [string, string][]): string[][] {
  const next = new Map<string, Set<string>>()
  for (const [from, to] of edges) {
    if (from === to) continue
    next.set(from, (next.get(from) ?? new Set()).add(to))
    if (!next.has(to)) next.set(to, new Set())
  }
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const loops: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const to of next.get(node)!) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1) loops.push(component.sort())
  }
  for (const node of next.keys()) if (!index.has(node)) visit(node)
  return loops
}

describe('import layers', () => {
  const files = SOURCES.flatMap(sourceFiles)
  const edges = importsOf(files)

  it('reads the imports it checks', () => {
    expect(files.length).toBeGreaterThan(200)
    expect(edges.length).toBeGreaterThan(500)
  })

  it('no file imports itself through others', () => {
    expect(loopsOf(edges)).toEqual([])
  })

  it('no two parts of src/lib import each other, through others either: every import runs down', () => {
    const parts = edges.flatMap(([from, to]): [string, string][] => {
      const [a, b] = [partOf(from), partOf(to)]
      return a !== null && b !== null && a !== b ? [[a, b]] : []
    })
    expect(parts.length).toBeGreaterThan(100)
    expect(loopsOf(parts)).toEqual([])
  })
})
