import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import notifySignup from '../../netlify/functions/notify-signup.js'
import reservation from '../../netlify/functions/reservation.js'
import { openStore, RECORDS_STORE } from '../../src/lib/storage/blobStore.js'
import { fakeContext } from '../helpers/context.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { clearOutbound, pointOutboundAt, TEXTS } from './formTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { eventsOf, logText, useLogCapture } from '../helpers/logs.js'

const PRODUCT = 'chasen-takayama'
useBlobsServer()
beforeAll(clearOutbound)
const logs = useLogCapture()
let outbound: RecordingServer
beforeAll(async () => {
  outbound = await startRecordingServer()
})
afterAll(async () => {
  clearOutbound()
  await outbound.close()
})
beforeEach(() => {
  outbound.requests.length = 0
  pointOutboundAt(outbound)
})

type Handler = typeof reservation

async function send(handler: Handler, path: string, body: unknown) {
  const context = fakeContext()
  const res = await readJson(await handler(jsonRequest(path, body), context))
  await context.settled()
  return res
}

/**
 * The keys of the records store, but the index bases and markers `index/…` that a read may write
 * (a decoy reads the queue it answers a place in); a write announces itself in `index-deltas/`.
 */
async function storedKeys(): Promise<string[]> {
  const { blobs } = await openStore(RECORDS_STORE, fakeContext()).list()
  return blobs.map((blob) => blob.key).filter((key) => !key.startsWith('index/'))
}

const forms = [
  {
    name: 'reservation',
    handler: reservation,
    path: '/api/reservation',
    body: { name: '山田 花子', email: 'bot@example.com', productSlug: PRODUCT },
    idField: 'reservationId',
    otherFields: [],
    idPattern: /^res_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    // Slack reservation channel + auto-reply e-mail
    sentByPerson: 2,
  },
  {
    name: 'notify-signup',
    handler: notifySignup,
    path: '/api/notify-signup',
    body: { email: 'bot@example.com', productSlug: PRODUCT },
    idField: 'subscriptionId',
    // why: a person's sign-up is answered with its place in the queue
    otherFields: ['queue'],
    idPattern: /^ntf_\d{13}-[0-9a-f]{10}$/,
    // Slack restock channel + Discord + auto-reply e-mail
    sentByPerson: 3,
  },
]

describe.each(forms)('honeypot of POST $path', (form) => {
  it('answers a filled `website` exactly like a success, stores nothing, sends nothing, logs one line', async () => {
    const before = await storedKeys()
    const started = Date.now()
    const res = await send(form.handler, form.path, {
      ...form.body,
      website: 'https://spam.example',
    })

    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(Object.keys(res.body).sort()).toEqual(
      [form.idField, 'success', ...form.otherFields].sort(),
    )
    expect(res.body.success).toBe(true)
    expect(res.body[form.idField]).toMatch(form.idPattern)
    if (form.idField === 'subscriptionId') {
      const ms = Number(/^ntf_(\d+)-/.exec(res.body.subscriptionId)![1])
      expect(ms).toBeGreaterThanOrEqual(started)
    }
    expect(await storedKeys()).toEqual(before)
    expect(eventsOf(logs, 'form.honeypot')).toEqual([
      expect.objectContaining({ level: 'info', form: form.name.replace('notify-', '') }),
    ])
    expect(logText(logs)).not.toContain('bot@example.com')
    expect(logText(logs)).not.toContain('spam.example')

    // why: the same request without the honeypot does reach every destination, so silence
    // above is the honeypot's doing, not a broken recording server
    const person = await send(form.handler, form.path, form.body)
    expect(person.status).toBe(200)
    expect(Object.keys(person.body).sort()).toEqual(Object.keys(res.body).sort())
    // why: the decoy's place is the one the person then gets: last of the queue
    if (form.idField === 'subscriptionId') expect(person.body.queue).toEqual(res.body.queue)
    await outbound.waitFor(form.sentByPerson)
    expect(outbound.requests.every((request) => !request.body.includes('spam.example'))).toBe(true)
    expect(outbound.requests).toHaveLength(form.sentByPerson)
    expect((await storedKeys()).length).toBeGreaterThan(before.length)
  })

  it('treats any non-empty value as filled, and empty / null / whitespace as a person', async () => {
    for (const website of [1, true, { url: 'x' }, ['x']]) {
      const before = await storedKeys()
      const res = await send(form.handler, form.path, { ...form.body, website })
      expect(res.status).toBe(200)
      expect(await storedKeys()).toEqual(before)
    }
    expect(outbound.requests).toEqual([])
    for (const website of ['', '   ', null]) {
      const res = await send(form.handler, form.path, {
        ...form.body,
        email: `person-${crypto.randomUUID()}@example.com`,
        website,
      })
      expect(res.status).toBe(200)
    }
    expect(eventsOf(logs, 'form.honeypot')).toHaveLength(4)
    expect(outbound.requests.length).toBeGreaterThan(0)
  })

  it('still validates first: invalid fields and an unknown product answer as without the honeypot', async () => {
    const invalid = await send(form.handler, form.path, {
      ...form.body,
      email: 'not-an-email',
      website: 'x',
    })
    expect(invalid.status).toBe(400)
    expect(invalid.body.error).toBe(TEXTS.invalid)
    expect(invalid.body.details).toEqual([{ field: 'email', message: TEXTS.emailFormat }])
    const unknown = await send(form.handler, form.path, {
      ...form.body,
      productSlug: 'no-such-product',
      website: 'x',
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toEqual({ success: false, error: TEXTS.productNotFound })
  })
})

describe('honeypot of POST /api/notify-signup with double opt-in', () => {
  it('answers with confirmationRequired, as a person’s sign-up is answered', async () => {
    process.env.NOTIFY_DOUBLE_OPT_IN = 'true'
    process.env.UNSUBSCRIBE_SECRET = 'honeypot-double-opt-in-secret'
    try {
      const body = {
        email: `doi-${crypto.randomUUID().slice(0, 8)}@example.com`,
        productSlug: PRODUCT,
      }
      const decoy = await send(notifySignup, '/api/notify-signup', { ...body, website: 'x' })
      const person = await send(notifySignup, '/api/notify-signup', body)
      expect(Object.keys(decoy.body)).toEqual(Object.keys(person.body))
      expect(decoy.body.confirmationRequired).toBe(true)
    } finally {
      delete process.env.NOTIFY_DOUBLE_OPT_IN
      delete process.env.UNSUBSCRIBE_SECRET
    }
  })
})
