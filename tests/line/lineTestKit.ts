import { afterAll, beforeAll, beforeEach } from 'vitest'
import { startLineStandIn, type LineStandIn } from '../../platform/lineStandIn.js'
import { lineCallback } from '../../netlify/functions/line-callback.js'
import { lineLogin } from '../../netlify/functions/line-login.js'
import { lineUserHash } from '../../src/lib/storage/lineContacts.js'
import type { NotifySubscription } from '../../src/lib/storage/records.js'
import { openRepositories, type Repositories } from '../../src/lib/storage/repositories.js'
import { seedSubscription } from '../restock/restockTestKit.js'
import { useBlobsServer, type RunningBlobsServer } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import { useLogCapture, type LogLine } from '../helpers/logs.js'

export const LOGIN_CHANNEL_ID = '1657000000'
export const LOGIN_SECRET = 'line-login-channel-secret'
export const MESSAGING_TOKEN = 'line-messaging-access-token'
export const MESSAGING_SECRET = 'line-messaging-channel-secret'
/** A product without variants and one with (content/products). */
export const PRODUCT = 'hario-v60-dripper'
export const VARIANT_PRODUCT = 'mino-mug'

/**
 * A LINE test file's world: a real Blobs server and the LINE stand-in per file, the four LINE
 * variables set and both base URLs pointed at the stand-in, a fresh deploy context (own store)
 * per test, logs captured.
 */
export function useLineEnvironment() {
  const blobs = useBlobsServer()
  const logs = useLogCapture()
  let standIn: LineStandIn | null = null
  let deployContext = 'dev'
  beforeAll(async () => {
    standIn = await startLineStandIn({
      loginChannelId: LOGIN_CHANNEL_ID,
      loginChannelSecret: LOGIN_SECRET,
    })
  })
  afterAll(async () => {
    await standIn?.close()
  })
  beforeEach(() => {
    deployContext = `line-${crypto.randomUUID().slice(0, 8)}`
    Object.assign(process.env, {
      LINE_LOGIN_CHANNEL_ID: LOGIN_CHANNEL_ID,
      LINE_LOGIN_CHANNEL_SECRET: LOGIN_SECRET,
      LINE_MESSAGING_CHANNEL_ACCESS_TOKEN: MESSAGING_TOKEN,
      LINE_MESSAGING_CHANNEL_SECRET: MESSAGING_SECRET,
      LINE_API_BASE_URL: standIn!.url,
      LINE_LOGIN_BASE_URL: standIn!.url,
      SITE_URL: 'http://shop.test',
    })
    delete process.env.RESEND_API_KEY
    delete process.env.RESEND_FROM_EMAIL
    standIn!.nextLogin = { userId: newLineUserId(), addsFriend: true }
    standIn!.idTokenNonce = null
  })
  const environment = {
    blobs: blobs as RunningBlobsServer,
    logs: logs as LogLine[],
    get standIn(): LineStandIn {
      if (!standIn) throw new Error('useLineEnvironment: read the stand-in inside a test')
      return standIn
    },
    context: () => fakeContext({ deployContext }),
    repositories(): Repositories {
      return openRepositories(environment.context())
    },
    /** GET /api/line/login for `query`; the raw answer. */
    async startLogin(query: Record<string, string>, now = Date.now()) {
      const url = new URL('http://shop.test/api/line/login')
      for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
      return lineLogin({ now: () => now })(new Request(url), environment.context())
    },
    /** Follows a redirect to LINE's (stand-in's) login page: the callback URL it sends back to. */
    async atLine(location: string): Promise<URL> {
      const response = await fetch(location, { redirect: 'manual' })
      if (response.status !== 302) throw new Error(`LINE answered ${response.status}`)
      return new URL(response.headers.get('location')!)
    },
    /** GET the callback at `url`; status and page text, once background work settled. */
    async callback(url: URL, now = Date.now()) {
      const context = environment.context()
      const response = await lineCallback({ now: () => now })(new Request(url), context)
      await context.settled()
      return { status: response.status, headers: response.headers, text: await response.text() }
    },
    /** The whole login of the stand-in's `nextLogin` for `query`: the callback's answer. */
    async signUp(query: Record<string, string>) {
      const start = await environment.startLogin(query)
      return environment.callback(await environment.atLine(start.headers.get('location')!))
    },
  }
  return environment
}

/** A LINE user id in LINE's form: `U` and 32 hex digits. */
export function newLineUserId(): string {
  return `U${crypto.randomUUID().replace(/-/g, '')}`
}

/** A LINE sign-up of `productSlug` with a contact record saying whether they are a friend. */
export async function seedLineSubscriber(
  repositories: Repositories,
  productSlug: string,
  friend: boolean,
): Promise<NotifySubscription> {
  const lineUserId = newLineUserId()
  const subscription = await seedSubscription(repositories, {
    productSlug,
    email: '',
    channel: 'line',
    lineUserId,
  })
  const hash = lineUserHash(lineUserId)
  await repositories.lineContacts.change(hash, () => ({
    hash,
    friend,
    friendSeenAt: new Date().toISOString(),
    subscriptions: [{ id: subscription.id, productSlug }],
    updatedAt: new Date().toISOString(),
  }))
  return subscription
}
