import { afterEach, describe, expect, it } from 'vitest'
import signupHandler from '../../netlify/functions/notify-signup.js'
import reservationHandler from '../../netlify/functions/reservation.js'
import { fakeContext, type TestContext } from '../helpers/context.js'
import { defaultReply, type RecordedRequest } from '../../platform/recordingServer.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { catalogueProduct, FROM_EMAIL, SECRETS, useOutboundRecorder } from '../forms/formTestKit.js'
import { eventsOf, logText } from '../helpers/logs.js'

/**
 * The outbound side of the two public forms (§6, D10), against a local server standing in for
 * Slack (`/slack/...`), Discord (`/discord/...`) and Resend (`/emails`).
 */

const SITE = 'https://shop.example'
/** Products of the real catalogue (content/products). */
const RESERVED = catalogueProduct('chasen-takayama')
const WAITED_FOR = catalogueProduct('hario-v60-dripper')
const recorder = useOutboundRecorder(SITE)
const { logs } = recorder
afterEach(() => {
  const text = logText(logs)
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret)
})

async function submit(
  handler: typeof reservationHandler,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, any>; context: TestContext }> {
  const context = fakeContext()
  const res = await readJson(await handler(jsonRequest(path, body), context))
  return { ...res, context }
}

const reserve = (body: unknown) => submit(reservationHandler, '/api/reservation', body)
const signUp = (body: unknown) => submit(signupHandler, '/api/notify-signup', body)

function requestsTo(prefix: string): RecordedRequest[] {
  return recorder.server.requests.filter((request) => request.path.startsWith(prefix))
}

function slackText(request: RecordedRequest): string {
  return request.json.blocks[0].text.text
}

describe('POST /api/reservation → team chat and customer e-mail', () => {
  it('sends the full details to the reservation channel and a confirmation e-mail, nothing to the community chat', async () => {
    const res = await reserve({
      name: '佐藤 一郎',
      email: 'Ichiro@Example.com',
      productSlug: RESERVED.slug,
    })
    expect(res.status).toBe(200)
    await res.context.settled()

    expect(recorder.server.requests.map((request) => request.path).sort()).toEqual([
      '/emails',
      `/slack/reservation/${SECRETS.reservationHook}`,
    ])
    const [chat] = requestsTo('/slack/reservation/')
    const text = slackText(chat)
    expect(chat.json.text).toBe(text)
    expect(text).toContain(`${RESERVED.title}（${RESERVED.slug}）`)
    expect(text).toContain('佐藤 一郎')
    expect(text).toContain('ichiro@example.com')
    expect(text).toContain(res.body.reservationId)
    expect(text).toMatch(/\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}（日本時間）/)
    // a bare URL, not a markup link (§6 rule 3)
    expect(text).toContain(`${SITE}/products/${RESERVED.slug}`)
    expect(text).not.toContain(`<${SITE}`)

    const [mail] = requestsTo('/emails')
    expect(mail.headers.authorization).toBe(`Bearer ${SECRETS.resendKey}`)
    expect(mail.headers['idempotency-key']).toBe(
      `reservation-confirmation/${res.body.reservationId}`,
    )
    expect(mail.json).toMatchObject({ from: FROM_EMAIL, to: 'ichiro@example.com' })
    expect(mail.json.subject).toContain(RESERVED.title)
    expect(mail.json.text).toContain('佐藤 一郎 様')
    expect(mail.json.text).toContain(res.body.reservationId)

    expect(requestsTo('/discord')).toEqual([])
    expect(
      eventsOf(logs, 'notify.sent')
        .map((line) => line.destination)
        .sort(),
    ).toEqual(['email', 'teamchat-reservation'])
  })

  it('escapes mention and link injection in the name (D10)', async () => {
    const res = await reserve({
      name: '<!channel> <https://evil.example|ここをクリック> & <@U123>',
      email: 'inject@example.com',
      productSlug: RESERVED.slug,
    })
    await res.context.settled()
    const text = slackText(requestsTo('/slack/reservation/')[0])
    expect(text).toContain(
      'お名前: `&lt;!channel&gt; &lt;https[:]//evil[.]example|ここをクリック&gt; &amp; &lt;@U123&gt;`',
    )
    expect(text).not.toMatch(/<[!@h]/)
  })

  it.each([
    ['never answer', () => 'hang' as const],
    ['refuse the connection', () => 'refuse' as const],
    [
      'answer 500',
      () => ({ status: 500, body: { message: 'down', name: 'internal_server_error' } }),
    ],
  ])(
    'still answers 200 at once when every destination would %s; the failures are logged',
    async (label, reply) => {
      recorder.server.reply = reply
      const res = await reserve({
        name: '田中',
        // why: one e-mail per case, each under its own address's hourly cap on confirmations
        email: `slow-${label.replace(/\W+/g, '-')}@example.com`,
        productSlug: RESERVED.slug,
      })
      expect(res.status).toBe(200)
      expect(res.body.success).toBe(true)

      let outboundDone = false
      void Promise.allSettled(res.context.deferred).then(() => (outboundDone = true))
      await recorder.server.waitFor(2)
      if (reply() === 'hang') {
        // the answer was complete while both calls were still hanging
        expect(outboundDone).toBe(false)
      }

      await res.context.settled()
      const failures = eventsOf(logs, 'notify.failed')
      expect(failures.map((line) => line.destination).sort()).toEqual([
        'email',
        'teamchat-reservation',
      ])
      if (reply() === 'hang') expect(failures.every((line) => line.error === 'timeout')).toBe(true)
      expect(eventsOf(logs, 'request.failed')).toEqual([])
    },
  )

  it('a failing destination does not stop the other one', async () => {
    recorder.server.reply = (request) =>
      request.path.startsWith('/slack') ? { status: 500 } : defaultReply(request)
    const res = await reserve({
      name: '鈴木',
      email: 'mixed@example.com',
      productSlug: RESERVED.slug,
    })
    await res.context.settled()
    expect(eventsOf(logs, 'notify.failed')).toEqual([
      expect.objectContaining({ destination: 'teamchat-reservation', status: 500 }),
    ])
    expect(eventsOf(logs, 'notify.sent')).toEqual([
      expect.objectContaining({ destination: 'email' }),
    ])
  })
})

describe('POST /api/notify-signup → restock channel, community chat, e-mail', () => {
  it('sends product, e-mail, time and URL to the team; only product and URL to the community', async () => {
    const res = await signUp({ email: 'Fan.Person@Example.com', productSlug: WAITED_FOR.slug })
    expect(res.status).toBe(200)
    await res.context.settled()

    expect(recorder.server.requests.map((request) => request.path).sort()).toEqual([
      `/discord/${SECRETS.communityHook}`,
      '/emails',
      `/slack/restock/${SECRETS.restockHook}`,
    ])

    const team = slackText(requestsTo('/slack/restock/')[0])
    expect(team).toContain(`${WAITED_FOR.title}（${WAITED_FOR.slug}）`)
    expect(team).toContain('fan.person@example.com')
    expect(team).toContain(res.body.subscriptionId)
    expect(team).toMatch(/\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}（日本時間）/)
    expect(team.split('\n')).toContain(`${SITE}/products/${WAITED_FOR.slug}`)

    const [community] = requestsTo('/discord/')
    expect(community.json).toEqual({
      content: `「${WAITED_FOR.title}」に再入荷通知の登録がありました。\n${SITE}/products/${WAITED_FOR.slug}`,
      allowed_mentions: { parse: [] },
      flags: 4,
    })
    // no personal data in the community chat: neither the address nor its parts
    expect(community.body.toLowerCase()).not.toContain('fan.person')
    expect(community.body.toLowerCase()).not.toContain('example.com')
    expect(community.body).not.toContain(res.body.subscriptionId)

    const [mail] = requestsTo('/emails')
    expect(mail.json).toMatchObject({ from: FROM_EMAIL, to: 'fan.person@example.com' })
    expect(mail.headers['idempotency-key']).toBe(`signup-confirmation/${res.body.subscriptionId}`)
    expect(mail.json.text).toContain(`${SITE}/products/${WAITED_FOR.slug}`)
  })

  it('sends nothing for a repeated signup', async () => {
    const first = await signUp({ email: 'once@example.com', productSlug: WAITED_FOR.slug })
    await first.context.settled()
    expect(recorder.server.requests).toHaveLength(3)
    const second = await signUp({ email: 'once@example.com', productSlug: WAITED_FOR.slug })
    await second.context.settled()
    expect(second.body.subscriptionId).toBe(first.body.subscriptionId)
    expect(recorder.server.requests).toHaveLength(3)
  })

  it('sends one set of messages for two identical signups arriving at once', async () => {
    const body = { email: 'same-time@example.com', productSlug: WAITED_FOR.slug }
    const [a, b] = await Promise.all([signUp(body), signUp(body)])
    await Promise.all([a.context.settled(), b.context.settled()])
    expect(a.body.subscriptionId).toBe(b.body.subscriptionId)
    expect(requestsTo('/emails')).toHaveLength(1)
    expect(requestsTo('/discord/')).toHaveLength(1)
    expect(requestsTo('/slack/restock/')).toHaveLength(1)
  })

  it('answers 200 while all three destinations hang, then logs three timeouts', async () => {
    recorder.server.reply = () => 'hang'
    const res = await signUp({ email: 'hang@example.com', productSlug: WAITED_FOR.slug })
    expect(res.status).toBe(200)
    let outboundDone = false
    void Promise.allSettled(res.context.deferred).then(() => (outboundDone = true))
    await recorder.server.waitFor(3)
    expect(outboundDone).toBe(false)
    await res.context.settled()
    expect(
      eventsOf(logs, 'notify.failed')
        .map((line) => `${line.destination}:${line.error}`)
        .sort(),
    ).toEqual(['communitychat:timeout', 'email:timeout', 'teamchat-restock:timeout'])
  })
})
