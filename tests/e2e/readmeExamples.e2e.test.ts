import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { readmeBlocks, runReadmeScript } from '../helpers/readmeScript.js'

/**
 * The README's examples ("Try it"), run as written by a shell against the server `npm start`
 * runs (tests/helpers/readmeScript.ts): each call answers what its `→` comment says.
 */

let server: RunningDevServer
let logDir: string

beforeAll(async () => {
  server = await startDevServer({ ADMIN_API_TOKEN: 'local-admin-token', PREORDER_API_TOKEN: '' })
  logDir = await mkdtemp(join(tmpdir(), 'readme-'))
})
afterAll(async () => {
  await server?.stop()
  if (logDir) await rm(logDir, { recursive: true, force: true })
})

describe('README examples', () => {
  it('answer, run verbatim against npm start’s server, what their comments say', async () => {
    const blocks = await readmeBlocks('## Try it')
    expect(blocks.length).toBeGreaterThanOrEqual(4)
    expect(await runReadmeScript(blocks, server.url, logDir)).toBeGreaterThan(15)
  }, 300_000)
})
