/**
 * `npm run bench`: every benchmark, one after the other, each in its own process so that one's
 * memory and JIT state do not colour the next. Figures are printed, never asserted.
 */
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

import { progress } from './benchReport.js'

const BENCHMARKS = [
  'bench-storage.ts',
  'bench-search.ts',
  'bench-keywords.ts',
  'bench-local.ts',
  'bench-stock.ts',
  'bench-orders.ts',
  'bench-queue.ts',
  'bench-holds.ts',
  'bench-delivery.ts',
  'bench-paging.ts',
  'bench-admin-memory.ts',
]
/** Run only when named in full (`npm run bench readings-cost`): it builds each site twice. */
const ON_REQUEST = { 'readings-cost': 'bench-search-readings-cost.ts' } as const
const only = process.argv.slice(2)

let failed = false
const chosen = [
  ...BENCHMARKS.filter((file) => !only.length || only.some((name) => file.includes(name))),
  ...Object.entries(ON_REQUEST)
    .filter(([name]) => only.includes(name))
    .map(([, file]) => file),
]
for (const [done, file] of chosen.entries()) {
  progress('bench', done, chosen.length)
  console.log(`\n=== ${file} ===`)
  const result = spawnSync(
    process.execPath,
    [resolve('node_modules/tsx/dist/cli.mjs'), resolve('bench', file)],
    { stdio: 'inherit' },
  )
  if (result.status !== 0) failed = true
}
progress('bench', chosen.length, chosen.length)
process.exit(failed ? 1 : 0)
