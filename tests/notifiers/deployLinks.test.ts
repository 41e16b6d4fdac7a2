import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import signupHandler from '../../netlify/functions/notify-signup.js'
import reservationHandler from '../../netlify/functions/reservation.js'
import { loadConfig, type DeployAddress } from '../../src/lib/config.js'
import { fakeContext } from '../helpers/context.js'
import {
  defaultReply,
  startRecordingServer,
  type RecordedRequest,
  type RecordingServer,
} from '../../platform/recordingServer.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { catalogueProduct, clearOutbound, pointOutboundAt } from '../forms/formTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'

/**
 * Links in messages point at the deploy that sent them (D1, docs/architecture.md "Links in
 * messages"): production at SITE_URL, a deploy preview at itself, even though Netlify's `URL`
 * names production in every context.
 */

const PRODUCTION = 'https://shop.example'
const NETLIFY_URL = 'https://shop-example.netlify.app'
const PREVIEW = 'https://deploy-preview-42--shop-example.netlify.app'
const PREVIEW_PERMALINK = 'https://6741a0c5e1d2b30008a1b2c3--shop-example.netlify.app'
const RESERVED = catalogueProduct('chasen-takayama')
const WAITED_FOR = catalogueProduct('hario-v60-dripper')
const DEPLOY_VARIABLES = [
  'SITE_URL',
  'URL',
  'DEPLOY_PRIME_URL',
  'DEPLOY_URL',
  'CONTEXT',
  'STOREFRONT_URL',
  'RESERVATION_LINK_SECRET',
]
const STOREFRONT = 'https://store.example'

/** The links' base the configuration of a request has (`siteUrl`, decided by publicBaseUrl). */
function publicBaseUrl(env: Record<string, string | undefined>, deploy?: DeployAddress): string {
  return loadConfig(env, deploy).siteUrl
}

describe('publicBaseUrl', () => {
  const netlifyEnv = {
    SITE_URL: PRODUCTION,
    URL: NETLIFY_URL,
    DEPLOY_PRIME_URL: PREVIEW,
    DEPLOY_URL: PREVIEW_PERMALINK,
  }
  it.each([
    ['production', netlifyEnv, PRODUCTION],
    ['production', { ...netlifyEnv, SITE_URL: undefined }, NETLIFY_URL],
    ['production', {}, 'https://reached.example'],
    ['deploy-preview', netlifyEnv, PREVIEW],
    ['deploy-preview', { ...netlifyEnv, DEPLOY_PRIME_URL: undefined }, PREVIEW_PERMALINK],
    ['deploy-preview', { SITE_URL: PRODUCTION, URL: NETLIFY_URL }, 'https://reached.example'],
    ['branch-deploy', { SITE_URL: PRODUCTION, URL: NETLIFY_URL }, 'https://reached.example'],
    ['dev', { SITE_URL: 'http://localhost:9311/', URL: NETLIFY_URL }, 'http://localhost:9311'],
    ['dev', { URL: 'http://localhost:8888' }, 'https://reached.example'],
  ])('%s with %j → %s', (context, env, expected) => {
    expect(publicBaseUrl(env, { context, origin: 'https://reached.example' })).toBe(expected)
  })

  it('takes the context from CONTEXT without a request context, and falls back to localhost', () => {
    expect(publicBaseUrl({ CONTEXT: 'production', URL: NETLIFY_URL })).toBe(NETLIFY_URL)
    expect(publicBaseUrl({ CONTEXT: 'deploy-preview', URL: NETLIFY_URL })).toBe(
      'http://localhost:8888',
    )
    expect(publicBaseUrl({})).toBe('http://localhost:8888')
  })
})

describe('the public forms link to the deploy that answered', () => {
  let server: RecordingServer
  useBlobsServer()
  beforeAll(clearOutbound)
  useLogCapture()

  beforeAll(async () => {
    server = await startRecordingServer()
  })
  afterAll(async () => {
    await server.close()
    for (const name of DEPLOY_VARIABLES) delete process.env[name]
  })
  beforeEach(() => {
    pointOutboundAt(server, 1000)
    server.requests.length = 0
    server.reply = defaultReply
    // what Netlify sets at run time in every context: URL names production
    process.env.SITE_URL = PRODUCTION
    process.env.URL = NETLIFY_URL
    delete process.env.DEPLOY_PRIME_URL
    delete process.env.DEPLOY_URL
    delete process.env.STOREFRONT_URL
  })

  async function submit(deployContext: string, origin: string) {
    const context = fakeContext({ deployContext })
    // why: a new shopper each time; a pending sign-up repeated sends nothing again
    const email = `links-${deployContext}-${crypto.randomUUID().slice(0, 8)}@example.com`
    const reservation = await readJson(
      await reservationHandler(
        jsonRequest(`${origin}/api/reservation`, {
          name: '佐藤 一郎',
          email,
          productSlug: RESERVED.slug,
        }),
        context,
      ),
    )
    const signup = await readJson(
      await signupHandler(
        jsonRequest(`${origin}/api/notify-signup`, {
          email,
          productSlug: WAITED_FOR.slug,
        }),
        context,
      ),
    )
    expect([reservation.status, signup.status]).toEqual([200, 200])
    await context.settled()
    return server.requests
  }

  function textsOf(requests: RecordedRequest[]): string {
    return requests.map((request) => request.body).join('\n')
  }

  it('a deploy preview links to itself, never to production', async () => {
    const requests = await submit('deploy-preview', PREVIEW)
    const slack = requests.filter((request) => request.path.startsWith('/slack/'))
    expect(slack.map((request) => request.path.split('/')[2]).sort()).toEqual([
      'reservation',
      'restock',
    ])
    const text = textsOf(requests)
    expect(text).toContain(`${PREVIEW}/products/${RESERVED.slug}`)
    expect(text).toContain(`${PREVIEW}/products/${WAITED_FOR.slug}`)
    expect(text).not.toContain(PRODUCTION)
    expect(text).not.toContain(NETLIFY_URL)
  })

  it('a deploy preview prefers DEPLOY_PRIME_URL to the address it was reached at', async () => {
    process.env.DEPLOY_PRIME_URL = PREVIEW
    process.env.DEPLOY_URL = PREVIEW_PERMALINK
    const text = textsOf(await submit('deploy-preview', PREVIEW_PERMALINK))
    expect(text).toContain(`${PREVIEW}/products/${RESERVED.slug}`)
    expect(text).not.toContain(PREVIEW_PERMALINK)
    expect(text).not.toContain(PRODUCTION)
  })

  it('production links to SITE_URL, whatever address it was reached at', async () => {
    const text = textsOf(await submit('production', NETLIFY_URL))
    expect(text).toContain(`${PRODUCTION}/products/${RESERVED.slug}`)
    expect(text).toContain(`${PRODUCTION}/products/${WAITED_FOR.slug}`)
    expect(text).not.toContain(NETLIFY_URL)
  })

  it('product links go to the storefront (STOREFRONT_URL), the service’s own links stay on SITE_URL', async () => {
    process.env.STOREFRONT_URL = `${STOREFRONT}/`
    process.env.RESERVATION_LINK_SECRET = 'link-secret-for-storefront-test'
    const requests = await submit('production', NETLIFY_URL)
    const text = textsOf(requests)
    expect(text).toContain(`${STOREFRONT}/products/${RESERVED.slug}`)
    expect(text).toContain(`${STOREFRONT}/products/${WAITED_FOR.slug}`)
    expect(text).not.toContain(`${PRODUCTION}/products/`)
    const receipt = requests.find((request) => request.path.startsWith('/emails'))
    expect(receipt?.json.text).toContain(`${PRODUCTION}/reservation/manage?token=`)
    delete process.env.RESERVATION_LINK_SECRET
  })
})
