import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { startLineStandIn, type LineStandIn } from '../../platform/lineStandIn.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { lineRetryKey } from '../../src/lib/restock/lineDelivery.js'
import { lineSignature } from '../../src/lib/signing/lineSignature.js'

/**
 * LINE end to end over HTTP (`npm start` with the LINE stand-in and a Resend stand-in): sign-up
 * with LINE Login → a stock rise → one push per LINE subscriber with its retry key (one of them
 * retried after a lost answer, and still sent once); a state replay and a wrong nonce refused;
 * the unfollow webhook with a bad and a good signature; an erase by LINE user id leaving no LINE
 * id in any blob. And `npm start` without the LINE variables offers no LINE sign-up.
 */

const ADMIN = 'e2e-line-admin-token'
const LOGIN_ID = '1657000001'
const LOGIN_SECRET = 'e2e-line-login-secret'
const MESSAGING_SECRET = 'e2e-line-messaging-secret'
const PRODUCT = 'nambu-tekki-kettle'

let server: RunningDevServer
let line: LineStandIn
let resend: RecordingServer

beforeAll(async () => {
  line = await startLineStandIn({ loginChannelId: LOGIN_ID, loginChannelSecret: LOGIN_SECRET })
  resend = await startRecordingServer()
  server = await startDevServer({
    ADMIN_API_TOKEN: ADMIN,
    PREORDER_API_TOKEN: '',
    RESEND_API_KEY: 're_test_key',
    RESEND_FROM_EMAIL: 'shop@example.jp',
    RESEND_BASE_URL: resend.url,
    UNSUBSCRIBE_SECRET: 'e2e-unsubscribe-secret',
    LINE_LOGIN_CHANNEL_ID: LOGIN_ID,
    LINE_LOGIN_CHANNEL_SECRET: LOGIN_SECRET,
    LINE_MESSAGING_CHANNEL_ACCESS_TOKEN: 'e2e-line-access-token',
    LINE_MESSAGING_CHANNEL_SECRET: MESSAGING_SECRET,
    LINE_API_BASE_URL: line.url,
    LINE_LOGIN_BASE_URL: line.url,
  })
}, 180_000)
afterAll(async () => {
  await server?.stop()
  await line?.close()
  await resend?.close()
})

/** LINE's answer to a login page address: the callback URL it sends the shopper back to. */
async function atLine(authorize: string): Promise<string> {
  const response = await fetch(authorize, { redirect: 'manual' })
  return response.headers.get('location')!
}

/** The login of `userId` for the product: the callback URL LINE (the stand-in) sends back to. */
async function loginAt(userId: string): Promise<string> {
  return atLine(await authorizeUrl(userId))
}

/** The address of LINE's login page the service sends `userId` to. */
async function authorizeUrl(userId: string): Promise<string> {
  line.nextLogin = { userId, addsFriend: true }
  const start = await fetch(`${server.url}/api/line/login?productSlug=${PRODUCT}`, {
    redirect: 'manual',
  })
  expect(start.status).toBe(302)
  return start.headers.get('location')!
}

async function page(url: string) {
  const response = await fetch(url, { redirect: 'manual' })
  return { status: response.status, text: await response.text() }
}

async function webhook(body: string, signature: string) {
  const response = await fetch(`${server.url}/api/line-webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Line-Signature': signature },
    body,
  })
  return { status: response.status, body: await response.json() }
}

/** Every blob file of the service's local Blobs, as text (names too). */
async function everyBlob(): Promise<string[]> {
  const directory = join(server.root, '.netlify')
  const texts: string[] = []
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.parentPath.includes('blobs')) continue
    texts.push(decodeURIComponent(entry.name))
    texts.push(await readFile(join(entry.parentPath, entry.name), 'utf8'))
  }
  return texts
}

const userIds = ['U' + 'a'.repeat(32), 'U' + 'b'.repeat(32)]

describe('LINE over npm start with the stand-ins', () => {
  it('offers the LINE sign-up and signs two shoppers up; a replay and a wrong nonce are refused', async () => {
    const availability = await fetch(`${server.url}/api/products/${PRODUCT}/availability`)
    expect(await availability.json()).toMatchObject({ lineSignup: true })

    const authorize = await authorizeUrl(userIds[0])
    const first = await atLine(authorize)
    expect(await page(first)).toMatchObject({
      status: 200,
      text: expect.stringContaining('LINEでの登録が完了しました'),
    })
    // the same callback again: LINE refuses its used code; the same state with a fresh code: 409
    expect((await page(first)).status).toBe(403)
    expect((await page(await atLine(authorize))).status).toBe(409)

    line.idTokenNonce = 'not-the-nonce-of-this-login'
    expect((await page(await loginAt(userIds[1]))).status).toBe(403)
    line.idTokenNonce = null
    expect((await page(await loginAt(userIds[1]))).status).toBe(200)

    const list = await server.postJson('/api/admin-notify-list', { productSlug: PRODUCT }, ADMIN)
    const lineIds = (list.body.subscriptions as { lineUserId?: string }[]).map((s) => s.lineUserId)
    expect(lineIds.sort()).toEqual(userIds)
  }, 60_000)

  it('pushes one message per LINE subscriber on a stock rise, a retried push only once', async () => {
    line.loseAnswers = 1
    const auto = await server.postJson(
      '/api/admin/notify/auto',
      {
        productSlug: PRODUCT,
        enabled: true,
        emailTitle: '{product} 再入荷しました',
        emailBody: 'こちらから: {url}',
      },
      ADMIN,
    )
    expect(auto.status).toBe(200)
    await server.postJson(
      '/api/admin/stock',
      { items: [{ productSlug: PRODUCT, quantity: 0 }] },
      ADMIN,
    )
    const raised = await server.postJson(
      '/api/admin/stock',
      { items: [{ productSlug: PRODUCT, quantity: 2 }] },
      ADMIN,
    )
    expect(raised.status).toBe(200)
    const deadline = Date.now() + 60_000
    while (line.pushes.length + line.repeatedKeys.length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(line.pushes.map((push) => push.to).sort()).toEqual(userIds)
    expect(line.repeatedKeys).toHaveLength(1)
    const list = await server.postJson('/api/admin-notify-list', { productSlug: PRODUCT }, ADMIN)
    const subscriptions = list.body.subscriptions as { id: string; lineUserId: string }[]
    const history = await server.postJson(
      '/api/admin/notify/history',
      { productSlug: PRODUCT },
      ADMIN,
    )
    const notificationId = (history.body.notifications as { id: string }[])[0].id
    for (const push of line.pushes) {
      const subscription = subscriptions.find((s) => s.lineUserId === push.to)!
      expect(push.retryKey).toBe(lineRetryKey(notificationId, subscription.id))
    }
    expect(resend.requests.filter((request) => request.path.startsWith('/emails/batch'))).toEqual(
      [],
    )
  }, 90_000)

  it('refuses an unfollow with a bad signature and opts the user out with a good one', async () => {
    const body = JSON.stringify({
      destination: 'U0',
      events: [{ type: 'unfollow', source: { type: 'user', userId: userIds[1] }, timestamp: 1 }],
    })
    expect((await webhook(body, lineSignature('wrong-secret', body))).status).toBe(401)
    expect(await webhook(body, lineSignature(MESSAGING_SECRET, body))).toMatchObject({
      status: 200,
      body: { success: true, handled: 1 },
    })
  }, 30_000)

  it('erases a LINE user by id and leaves no LINE id in any blob', async () => {
    expect((await everyBlob()).some((text) => text.includes(userIds[0]))).toBe(true)
    const erased = await server.postJson(
      '/api/admin/people/erase',
      { lineUserId: userIds[0] },
      ADMIN,
    )
    expect(erased).toMatchObject({ status: 200, body: { erased: { subscriptions: 1 } } })
    expect((await everyBlob()).filter((text) => text.includes(userIds[0]))).toEqual([])
    expect(server.output()).not.toContain(userIds[0])
  }, 60_000)
})
