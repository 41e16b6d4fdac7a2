import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { startDevServer } from '../../platform/startDevServer.js'
import { InvalidConfigError, loadConfig } from '../../src/lib/config.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { fakeContext } from '../helpers/context.js'
import { eventsOf, useLogCapture } from '../helpers/logs.js'
import { jsonRequest, readJson } from '../helpers/requests.js'

/**
 * Every boolean variable of src/lib/config.ts is read one way: true, on, 1 / false, off, 0 in any
 * case; unset or empty keeps the default; anything else stops the request with an error that
 * names the variable (no value is quietly taken as false).
 */

const BOOLEANS = [
  { name: 'NOTIFY_DOUBLE_OPT_IN', field: 'notifyDoubleOptIn', fallback: false },
  { name: 'RESERVATION_STATUS_EMAILS', field: 'reservationStatusEmails', fallback: true },
] as const

const TRUE = ['true', 'TRUE', 'True', 'on', 'ON', 'On', '1', ' on ']
const FALSE = ['false', 'FALSE', 'off', 'Off', 'OFF', '0', ' false ']
const NOT_BOOLEAN = ['yes', 'no', 'enabled', '2', 'tru', 'onn', '-1', 'true1']

const logs = useLogCapture()
afterEach(() => {
  for (const { name } of BOOLEANS) delete process.env[name]
})

describe.each(BOOLEANS)('$name', ({ name, field, fallback }) => {
  it('reads true, on and 1 as true, in any case', () => {
    for (const value of TRUE) expect(loadConfig({ [name]: value })[field], value).toBe(true)
  })

  it('reads false, off and 0 as false, in any case', () => {
    for (const value of FALSE) expect(loadConfig({ [name]: value })[field], value).toBe(false)
  })

  it(`keeps its default (${fallback}) when unset or empty`, () => {
    expect(loadConfig({})[field]).toBe(fallback)
    expect(loadConfig({ [name]: '' })[field]).toBe(fallback)
    expect(loadConfig({ [name]: '   ' })[field]).toBe(fallback)
  })

  it('refuses any other value with an error naming the variable and the value', () => {
    for (const value of NOT_BOOLEAN) {
      expect(() => loadConfig({ [name]: value }), value).toThrow(InvalidConfigError)
      expect(() => loadConfig({ [name]: value }), value).toThrow(
        `${name} must be true, false, on, off, 1 or 0 (in any case), got "${value}"`,
      )
    }
  })

  it('a request under such a value answers 500 and logs the error naming the variable', async () => {
    process.env[name] = 'yes'
    const endpoint = defineEndpoint({
      methods: ['POST'],
      auth: 'none',
      body: z.object({}),
      handle: async () => ({}),
    })
    const answer = await readJson(await endpoint(jsonRequest('/x', {}), fakeContext()))
    expect(answer.status).toBe(500)
    expect(JSON.stringify(answer.body)).not.toContain(name)
    const [failed] = eventsOf(logs, 'request.failed')
    expect(JSON.stringify(failed)).toContain(`${name} must be true, false, on, off, 1 or 0`)
  })
})

describe('npm start', () => {
  it('refuses to start with a variable it cannot read, naming it', async () => {
    await expect(startDevServer({ NOTIFY_DOUBLE_OPT_IN: 'yes' })).rejects.toThrow(
      'Cannot start: NOTIFY_DOUBLE_OPT_IN must be true, false, on, off, 1 or 0 (in any case), got "yes"',
    )
  })
})
