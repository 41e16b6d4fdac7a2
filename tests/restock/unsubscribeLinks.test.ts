import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import deliverModule from '../../netlify/functions/notify-deliver-background.js'
import sendModule from '../../netlify/functions/admin-notify-send.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { fakeContext } from '../helpers/context.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import {
  FROM,
  freshProduct,
  resendReply,
  seedMany,
  SEND_PATH,
  startSite,
  useSendSettings,
  VALID_SEND,
} from './restockTestKit.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

/**
 * Restock e-mails carry the address of the deploy that sent them: a deploy preview's unsubscribe
 * links must reach the preview, where its subscriptions are (D12), not production.
 */

const PRODUCTION = 'https://shop.example.test'
const NETLIFY_URL = 'https://shop-example.netlify.app'
const PREVIEW = 'https://deploy-preview-7--shop-example.netlify.app'
const DEPLOY_VARIABLES = ['SITE_URL', 'URL', 'DEPLOY_PRIME_URL', 'DEPLOY_URL']

useSendSettings()

describe.each(['deploy-preview', 'production'])('restock e-mails sent from %s', (deployContext) => {
  let resend: RecordingServer
  let site: Awaited<ReturnType<typeof startSite>>

  beforeAll(async () => {
    resend = await startRecordingServer()
    site = await startSite(deliverModule, deployContext)
  })
  afterAll(async () => {
    await site.close()
    await resend.close()
  })
  beforeEach(() => {
    process.env.RESEND_API_KEY = 're_test_key'
    process.env.RESEND_FROM_EMAIL = FROM
    process.env.RESEND_BASE_URL = resend.url
    process.env.SITE_URL = PRODUCTION
    process.env.URL = NETLIFY_URL
    resend.requests.length = 0
    resend.reply = resendReply()
  })
  afterEach(() => {
    for (const name of DEPLOY_VARIABLES) delete process.env[name]
  })

  /** Sends to 2 subscribers of this deploy's store and answers the links of the delivered e-mails. */
  async function deliveredLinks(): Promise<string[]> {
    const context = fakeContext({ deployContext })
    const productSlug = freshProduct('links')
    await seedMany(openRepositories(context), 2, { productSlug })
    const request = jsonRequest(
      `${site.url}${SEND_PATH}`,
      { ...VALID_SEND, productSlug },
      { token: ADMIN_TOKEN },
    )
    const response = await readJson(await sendModule(request, context))
    await context.settled()
    expect(response.status).toBe(200)
    const [delivery] = await site.idle()
    expect(delivery.status).toBe(200)
    expect(resend.requests).toHaveLength(1)
    const emails = resend.requests[0].json as { text: string; headers: Record<string, string> }[]
    expect(emails).toHaveLength(2)
    return emails.flatMap((email) => [
      email.headers['List-Unsubscribe'].slice(1, -1),
      ...(email.text.match(/https?:\/\/\S+/g) ?? []),
    ])
  }

  if (deployContext === 'deploy-preview') {
    it('link to DEPLOY_PRIME_URL when Netlify sets it', async () => {
      process.env.DEPLOY_PRIME_URL = PREVIEW
      const links = await deliveredLinks()
      expect(links.length).toBeGreaterThanOrEqual(4)
      for (const link of links) expect(link.startsWith(`${PREVIEW}/`)).toBe(true)
      expect(links.some((link) => link.includes('/api/notify-unsubscribe?token='))).toBe(true)
      // the product link goes through the click redirect on the same origin (docs/dashboard.md)
      expect(links.some((link) => link.includes('/api/r?'))).toBe(true)
    })

    it('link to the address the preview was reached at otherwise', async () => {
      const links = await deliveredLinks()
      for (const link of links) expect(link.startsWith(`${site.url}/`)).toBe(true)
    })
  } else {
    it('link to SITE_URL', async () => {
      process.env.DEPLOY_PRIME_URL = PREVIEW
      const links = await deliveredLinks()
      expect(links.length).toBeGreaterThanOrEqual(4)
      for (const link of links) expect(link.startsWith(`${PRODUCTION}/`)).toBe(true)
    })
  }
})
