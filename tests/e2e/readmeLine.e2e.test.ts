import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { README_LINE_USER, startLineStandIn, type LineStandIn } from '../../platform/lineStandIn.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { readmeBlocks, runReadmeScript } from '../helpers/readmeScript.js'

/**
 * The README's LINE walk-through, run as written (tests/helpers/readmeScript.ts) against
 * `npm start` with the variables of its first block, the LINE stand-in and a Resend stand-in:
 * each call answers what its `→` comment says, and the stand-in receives the one push.
 */

let server: RunningDevServer
let line: LineStandIn
let resend: RecordingServer
let logDir: string

beforeAll(async () => {
  line = await startLineStandIn({
    loginChannelId: '1234567890',
    loginChannelSecret: 'local-line-login-secret',
    firstUserId: README_LINE_USER,
  })
  resend = await startRecordingServer()
  server = await startDevServer({
    ADMIN_API_TOKEN: 'local-admin-token',
    PREORDER_API_TOKEN: '',
    RESEND_API_KEY: 're_local',
    RESEND_FROM_EMAIL: 'Shop <shop@example.test>',
    RESEND_BASE_URL: resend.url,
    LINE_LOGIN_CHANNEL_ID: '1234567890',
    LINE_LOGIN_CHANNEL_SECRET: 'local-line-login-secret',
    LINE_MESSAGING_CHANNEL_ACCESS_TOKEN: 'local-line-token',
    LINE_MESSAGING_CHANNEL_SECRET: 'local-line-secret',
    LINE_API_BASE_URL: line.url,
    LINE_LOGIN_BASE_URL: line.url,
  })
  logDir = await mkdtemp(join(tmpdir(), 'readme-line-'))
}, 180_000)
afterAll(async () => {
  await server?.stop()
  await line?.close()
  await resend?.close()
  if (logDir) await rm(logDir, { recursive: true, force: true })
})

describe('README "LINE" walk-through', () => {
  it('signs up with LINE, pushes the restock with a retry key and takes the unfollow', async () => {
    const blocks = await readmeBlocks('## LINE')
    expect(blocks).toHaveLength(1)
    expect(await runReadmeScript(blocks, server.url, logDir)).toBe(6)
    expect(line.pushes.map((push) => push.to)).toEqual([README_LINE_USER])
    expect(line.pushes[0].retryKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-/)
  }, 300_000)
})
