import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/lib/log.js'
import type { DeliveryResult } from '../../src/lib/notifiers/delivery.js'
import { createDiscordNotifier } from '../../src/lib/notifiers/discordNotifier.js'
import { dispatchNotifications } from '../../src/lib/notifiers/dispatch.js'
import { createResendMailer } from '../../src/lib/notifiers/resendMailer.js'
import { createSlackNotifier } from '../../src/lib/notifiers/slackNotifier.js'
import { mrkdwn } from '../../src/lib/notifiers/slackText.js'
import { fakeContext } from '../helpers/context.js'
import {
  defaultReply,
  startRecordingServer,
  type RecordingServer,
} from '../../platform/recordingServer.js'
import { eventsOf, logText, useLogCapture } from '../helpers/logs.js'

const HOOK_SECRET = 'T000/B000/HOOK-SECRET'
const API_KEY = 're_unit_SECRET'

let server: RecordingServer
const logs = useLogCapture()
const log = createLogger('req-notifiers')

beforeAll(async () => {
  server = await startRecordingServer()
  process.env.RESEND_BASE_URL = server.url
})
afterAll(() => server.close())
beforeEach(() => {
  server.requests.length = 0
  server.reply = defaultReply
})
afterEach(() => {
  // no secret ever reaches a log line
  expect(logText(logs)).not.toContain('HOOK-SECRET')
  expect(logText(logs)).not.toContain(API_KEY)
})

function slack(timeoutMs = 2000, webhookUrl: string | null = `${server.url}/slack/${HOOK_SECRET}`) {
  return createSlackNotifier({
    destination: 'teamchat-test',
    webhookUrl,
    variable: 'TEAMCHAT_TEST_WEBHOOK_URL',
    timeoutMs,
    log,
  })
}

describe('Slack notifier', () => {
  it('posts one mrkdwn section to the webhook and reports it sent', async () => {
    const result = await slack().send(mrkdwn`*見出し* ${'<!channel>'}`)
    expect(result).toEqual({ destination: 'teamchat-test', outcome: 'sent', status: 200 })
    const [request] = server.requests
    expect(request.method).toBe('POST')
    expect(request.path).toBe(`/slack/${HOOK_SECRET}`)
    expect(request.headers['content-type']).toBe('application/json')
    expect(request.json).toEqual({
      text: '*見出し* &lt;!channel&gt;',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*見出し* &lt;!channel&gt;' } }],
      unfurl_links: false,
      unfurl_media: false,
    })
    expect(eventsOf(logs, 'notify.sent')).toEqual([
      expect.objectContaining({ destination: 'teamchat-test', status: 200 }),
    ])
  })

  it('skips with an info log when its variable is unset, and calls nobody', async () => {
    const notifier = slack(2000, null)
    expect(notifier.enabled).toBe(false)
    const result = await notifier.send(mrkdwn`x`)
    expect(result).toEqual({ destination: 'teamchat-test', outcome: 'skipped' })
    expect(eventsOf(logs, 'notify.skipped')).toEqual([
      expect.objectContaining({ level: 'info', reason: 'TEAMCHAT_TEST_WEBHOOK_URL is not set' }),
    ])
    expect(server.requests).toHaveLength(0)
  })

  it('disables itself with one configuration error for a malformed URL, without echoing it', async () => {
    const notifier = slack(2000, 'hooks.slack.com/HOOK-SECRET')
    expect(notifier.enabled).toBe(false)
    expect(eventsOf(logs, 'notify.misconfigured')).toEqual([
      expect.objectContaining({
        level: 'error',
        reason: 'TEAMCHAT_TEST_WEBHOOK_URL is not an http(s) URL',
      }),
    ])
    expect((await notifier.send(mrkdwn`x`)).outcome).toBe('skipped')
    expect(server.requests).toHaveLength(0)
  })

  it('refuses a non-positive timeout when created', () => {
    expect(() => slack(0)).toThrow(/timeoutMs must be a positive number/)
  })

  it.each([
    [
      'a 500 answer',
      () => ({ status: 500, body: { error: 'boom' } }),
      { status: 500, error: 'HTTP 500' },
    ],
    ['a 404 answer', () => ({ status: 404 }), { status: 404, error: 'HTTP 404' }],
    ['a dropped connection', () => 'refuse' as const, {}],
  ])('reports %s as a logged failure and does not throw', async (_label, reply, expected) => {
    server.reply = reply
    const result = await slack().send(mrkdwn`x`)
    expect(result).toMatchObject({ destination: 'teamchat-test', outcome: 'failed', ...expected })
    const [failure] = eventsOf(logs, 'notify.failed')
    expect(failure).toMatchObject({ level: 'warn', destination: 'teamchat-test' })
    if ('status' in expected) expect(failure.status).toBe(expected.status)
  })

  it('gives up on a destination that never answers after its timeout', async () => {
    server.reply = () => 'hang'
    const result = await slack(100).send(mrkdwn`x`)
    expect(result).toEqual({ destination: 'teamchat-test', outcome: 'failed', error: 'timeout' })
    expect(eventsOf(logs, 'notify.failed')).toEqual([
      expect.objectContaining({ destination: 'teamchat-test', error: 'timeout', timeoutMs: 100 }),
    ])
  })

  it('reports an unreachable host as a failure', async () => {
    const closed = await startRecordingServer()
    await closed.close()
    const notifier = createSlackNotifier({
      destination: 'teamchat-test',
      webhookUrl: `${closed.url}/HOOK-SECRET`,
      variable: 'X',
      timeoutMs: 2000,
      log,
    })
    expect(await notifier.send(mrkdwn`x`)).toMatchObject({
      outcome: 'failed',
      error: 'ECONNREFUSED',
    })
  })
})

describe('Discord notifier', () => {
  it('posts the content with mentions disabled', async () => {
    const discord = createDiscordNotifier({
      webhookUrl: `${server.url}/discord/${HOOK_SECRET}`,
      timeoutMs: 2000,
      log,
    })
    server.reply = () => ({ status: 204 })
    const result = await discord.send('@everyone 入荷 https://shop.example/products/a')
    expect(result).toEqual({ destination: 'communitychat', outcome: 'sent', status: 204 })
    expect(server.requests[0].json).toEqual({
      content: '@everyone 入荷 https://shop.example/products/a',
      allowed_mentions: { parse: [] },
      flags: 4,
    })
  })

  it('skips with an info log naming COMMUNITYCHAT_WEBHOOK_URL when unset', async () => {
    const discord = createDiscordNotifier({ webhookUrl: null, timeoutMs: 2000, log })
    expect(await discord.send('x')).toEqual({ destination: 'communitychat', outcome: 'skipped' })
    expect(eventsOf(logs, 'notify.skipped')[0].reason).toBe('COMMUNITYCHAT_WEBHOOK_URL is not set')
  })
})

describe('Resend mailer', () => {
  const email = { to: 'customer@example.com', subject: '件名', text: '本文\n2行目' }

  function mailer(timeoutMs = 2000) {
    return createResendMailer({ apiKey: API_KEY, from: 'Shop <shop@example.com>', timeoutMs, log })
  }

  it('sends through POST /emails with the key, sender and idempotency key', async () => {
    const result = await mailer().send(email, { idempotencyKey: 'signup/ntf_1' })
    expect(result).toMatchObject({ destination: 'email', outcome: 'sent', id: expect.any(String) })
    const [request] = server.requests
    expect(request.method).toBe('POST')
    expect(request.path).toBe('/emails')
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`)
    expect(request.headers['idempotency-key']).toBe('signup/ntf_1')
    expect(request.json).toMatchObject({
      from: 'Shop <shop@example.com>',
      to: 'customer@example.com',
      subject: '件名',
      text: '本文\n2行目',
    })
  })

  it('writes the rendered e-mail to the log when no provider is configured', async () => {
    for (const [apiKey, from, missing] of [
      [null, 'shop@example.com', 'RESEND_API_KEY'],
      [API_KEY, null, 'RESEND_FROM_EMAIL'],
    ] as const) {
      const logOnly = createResendMailer({ apiKey, from, timeoutMs: 2000, log })
      expect(logOnly.configured).toBe(false)
      expect(await logOnly.send(email)).toEqual({ destination: 'email', outcome: 'logged' })
      expect(eventsOf(logs, 'email.logged').at(-1)).toMatchObject({
        level: 'info',
        to: 'customer@example.com',
        subject: '件名',
        text: '本文\n2行目',
        reason: expect.stringContaining(missing),
      })
    }
    expect(server.requests).toHaveLength(0)
  })

  it('reports a provider error ({error}) as a logged failure with its status', async () => {
    server.reply = () => ({
      status: 422,
      body: { name: 'validation_error', message: 'Invalid `to` field.', statusCode: 422 },
    })
    const result = await mailer().send(email)
    expect(result).toEqual({
      destination: 'email',
      outcome: 'failed',
      error: 'validation_error',
      status: 422,
    })
    expect(eventsOf(logs, 'notify.failed')[0]).toMatchObject({
      level: 'warn',
      destination: 'email',
      status: 422,
    })
  })

  it('reports a timeout and a dropped connection as failures', async () => {
    server.reply = () => 'hang'
    expect(await mailer(100).send(email)).toMatchObject({ outcome: 'failed', error: 'timeout' })
    server.reply = () => 'refuse'
    expect(await mailer().send(email)).toMatchObject({ outcome: 'failed' })
    expect(eventsOf(logs, 'notify.failed')).toHaveLength(2)
  })
})

describe('dispatchNotifications', () => {
  it('returns before any delivery finishes and hands the whole to waitUntil', async () => {
    const context = fakeContext()
    let release: (result: DeliveryResult) => void = () => undefined
    const slow = new Promise<DeliveryResult>((resolve) => (release = resolve))
    let finished = false
    const all = dispatchNotifications(context, log, [() => slow]).then((results) => {
      finished = true
      return results
    })
    expect(context.deferred).toHaveLength(1)
    await Promise.resolve()
    expect(finished).toBe(false)
    release({ destination: 'x', outcome: 'sent' })
    await context.settled()
    expect(await all).toEqual([{ destination: 'x', outcome: 'sent' }])
  })

  it('starts every delivery at once, and one that throws stops no other', async () => {
    const context = fakeContext()
    const started: string[] = []
    const results = await dispatchNotifications(context, log, [
      async () => {
        started.push('a')
        return { destination: 'a', outcome: 'sent' }
      },
      () => {
        started.push('b')
        throw new Error('bug in b')
      },
      async () => {
        started.push('c')
        throw new Error('bug in c')
      },
      async () => {
        started.push('d')
        return { destination: 'd', outcome: 'failed', error: 'HTTP 500' }
      },
    ])
    expect(started).toEqual(['a', 'b', 'c', 'd'])
    expect(results.map((result) => result.destination)).toEqual(['a', 'd'])
    expect(eventsOf(logs, 'notify.unexpected_failure').map((line) => line.error)).toEqual([
      'bug in b',
      'bug in c',
    ])
  })
})
