import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { zipFunction } from '@netlify/zip-it-and-ship-it'
import { afterAll, describe, expect, it } from 'vitest'

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
const tempDirs: string[] = []
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

/**
 * The traffic rule Netlify's own packager (zip-it-and-ship-it, as in a Netlify build) derives
 * from the function's in-source `config.rateLimit`. It drops a config it cannot read statically
 * or whose shape is wrong without a word, so its output is what must be checked.
 */
async function trafficRulesOf(name: string): Promise<unknown> {
  const out = await mkdtemp(path.join(tmpdir(), 'rate-limit-'))
  tempDirs.push(out)
  const result = await zipFunction(path.join(repoRoot, 'netlify/functions', `${name}.ts`), out, {
    archiveFormat: 'none',
    basePath: repoRoot,
    repositoryRoot: repoRoot,
    config: { '*': { nodeBundler: 'esbuild' } },
  })
  return result?.trafficRules
}

function rule(windowLimit: number) {
  return {
    action: {
      type: 'rate_limit',
      config: {
        rateLimitConfig: { windowLimit, windowSize: 60, algorithm: 'sliding_window' },
        aggregate: { keys: [{ type: 'ip' }, { type: 'domain' }] },
      },
    },
  }
}

describe('rate limits of the public functions, as Netlify reads them', () => {
  it.each([
    ['reservation', 30],
    ['notify-signup', 30],
    ['search', 300],
    ['search-suggest', 600],
    ['notify-unsubscribe', 30],
    ['notify-confirm', 30],
    ['notify-status', 30],
    ['reservation-hold', 30],
  ])(
    '%s: %i requests per 60 s per IP and domain',
    async (name, limit) => {
      expect(await trafficRulesOf(name)).toEqual(rule(limit))
    },
    120_000,
  )

  it('leaves the admin functions to the token (no rule)', async () => {
    expect(await trafficRulesOf('admin-stats')).toBeUndefined()
  }, 120_000)
})
