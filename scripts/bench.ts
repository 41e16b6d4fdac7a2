/**
 * `npm run bench`: every benchmark, one after the other, each in its own process so that one's
 * memory and JIT state do not colour the next. Figures are printed, never asserted.
 */
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

const BENCHMARKS = ['bench-storage.ts', 'bench-search.ts', 'bench-local.ts']
const only = process.argv.slice(2)

let failed = false
for (const file of BENCHMARKS) {
  if (only.length && !only.some((name) => file.includes(name))) continue
  console.log(`\n=== ${file} ===`)
  const result = spawnSync(
    process.execPath,
    [resolve('node_modules/tsx/dist/cli.mjs'), resolve('scripts', file)],
    { stdio: 'inherit' },
  )
  if (result.status !== 0) failed = true
}
process.exit(failed ? 1 : 0)
