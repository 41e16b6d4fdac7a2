import { beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { loadConfig } from '../../src/lib/config.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { fakeContext } from '../helpers/context.js'
import { eventsOf, useLogCapture } from '../helpers/logs.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN, PREORDER_TOKEN } from '../helpers/tokens.js'

/** STAFF_TOKENS beside ADMIN_API_TOKEN / PREORDER_API_TOKEN; the actor of each. */

const SATO = 'sato-token-0123456789'
const SUZUKI = 'suzuki-token-0123456789'

const whoAmI = (auth: 'admin' | 'preorder') =>
  defineEndpoint({
    methods: ['POST'],
    auth,
    body: z.object({}),
    // why: a test endpoint shows the actor; no real endpoint answers it
    handle: async ({ actor }) => jsonResponse({ success: true, actor }),
  })
const adminEndpoint = whoAmI('admin')
const preorderEndpoint = whoAmI('preorder')

const logs = useLogCapture()
beforeEach(() => {
  process.env.ADMIN_API_TOKEN = ADMIN_TOKEN
  process.env.PREORDER_API_TOKEN = PREORDER_TOKEN
  process.env.STAFF_TOKENS = `sato:${SATO}:admin, suzuki:${SUZUKI}:preorder`
})

async function call(endpoint: typeof adminEndpoint, token: string) {
  return readJson(await endpoint(jsonRequest('/x', {}, { token }), fakeContext()))
}

describe('STAFF_TOKENS', () => {
  it('accepts a staff token in its own group only, and names its holder', async () => {
    expect((await call(adminEndpoint, SATO)).body).toEqual({ success: true, actor: 'sato' })
    expect((await call(preorderEndpoint, SUZUKI)).body).toEqual({ success: true, actor: 'suzuki' })
    expect((await call(preorderEndpoint, SATO)).status).toBe(401)
    expect((await call(adminEndpoint, SUZUKI)).status).toBe(401)
  })

  it('keeps ADMIN_API_TOKEN and PREORDER_API_TOKEN as §5 says, as actors admin and preorder', async () => {
    expect((await call(adminEndpoint, ADMIN_TOKEN)).body.actor).toBe('admin')
    expect((await call(preorderEndpoint, PREORDER_TOKEN)).body.actor).toBe('preorder')
    expect((await call(adminEndpoint, PREORDER_TOKEN)).status).toBe(401)
    delete process.env.PREORDER_API_TOKEN
    // D7: the preorder group accepts ADMIN_API_TOKEN when its own is unset
    expect((await call(preorderEndpoint, ADMIN_TOKEN)).body.actor).toBe('admin')
  })

  it('works with staff tokens alone', async () => {
    delete process.env.ADMIN_API_TOKEN
    delete process.env.PREORDER_API_TOKEN
    expect((await call(adminEndpoint, SATO)).body.actor).toBe('sato')
    expect((await call(adminEndpoint, 'guess')).status).toBe(401)
  })

  it('logs a malformed entry at error level by position, never its token; it matches nothing', async () => {
    process.env.STAFF_TOKENS = `sato:${SATO}:admin,broken-${SUZUKI},tanaka:${SUZUKI}:owner,admin:${SUZUKI}:admin,`
    const refused = await call(adminEndpoint, SUZUKI)
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual({ success: false, error: 'Unauthorized' })
    const malformed = eventsOf(logs, 'auth.staffTokenMalformed')
    expect(malformed.map((line) => line.level)).toEqual(['error', 'error', 'error'])
    expect(malformed.map((line) => line.error)).toEqual([
      expect.stringContaining('STAFF_TOKENS entry 2 is ignored'),
      expect.stringContaining('STAFF_TOKENS entry 3 is ignored'),
      expect.stringContaining('STAFF_TOKENS entry 4 is ignored'),
    ])
    expect(JSON.stringify(logs)).not.toContain(SUZUKI)
    expect((await call(adminEndpoint, SATO)).body.actor).toBe('sato')
  })

  it('never answers a name publicly: a wrong token gets the same 401 as before', async () => {
    const answer = await call(adminEndpoint, `${SATO}x`)
    expect(answer.status).toBe(401)
    expect(JSON.stringify(answer.body)).not.toContain('sato')
  })

  it('is parsed in loadConfig: names, groups, positions', () => {
    const config = loadConfig({ STAFF_TOKENS: ` a.b:t1:admin ,, c:t2:preorder,d:t 3:admin` })
    expect(config.staffTokens).toEqual([
      { name: 'a.b', token: 't1', groups: ['admin'] },
      { name: 'c', token: 't2', groups: ['preorder'] },
    ])
    expect(config.malformedStaffTokens).toEqual([
      { position: 4, reason: 'the token is empty or contains spaces' },
    ])
  })
})
