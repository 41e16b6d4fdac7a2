import type { Context } from '@netlify/functions'
import { beforeEach } from 'vitest'
import { openRepositories, type Repositories } from '../../src/lib/storage/repositories.js'
import { webhookSignature } from '../../src/lib/signing/webhookSignature.js'
import { useBlobsServer, type RunningBlobsServer } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import { useLogCapture, type LogLine } from '../helpers/logs.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN, setApiTokens } from '../helpers/tokens.js'
import { SECRET } from '../restock/restockTestKit.js'

export const WEBHOOK_SECRET = 'stock-webhook-secret'
/** A product of the sample catalogue and its `sku:` (content/products/hario-v60-dripper.md). */
export const PRODUCT = 'hario-v60-dripper'
export const PRODUCT_SKU = 'SKU-1001'
export const OTHER_PRODUCT = 'chasen-takayama'

type Handler = (req: Request, context: Context) => Promise<Response>

/**
 * A stock test file's world: a real Blobs server per file, the admin token and webhook secret
 * set, no e-mail provider, logs captured. Every test gets a fresh deploy context (its own store),
 * so stock records of one test never meet another's.
 */
export function useStockEnvironment() {
  const blobs = useBlobsServer()
  const logs = useLogCapture()
  let deployContext = 'dev'
  beforeEach(() => {
    deployContext = `stock-${crypto.randomUUID().slice(0, 8)}`
    setApiTokens()
    process.env.STOCK_WEBHOOK_SECRET = WEBHOOK_SECRET
    process.env.UNSUBSCRIBE_SECRET = SECRET
    delete process.env.RESEND_API_KEY
    delete process.env.RESEND_FROM_EMAIL
    delete process.env.STOCK_FEED_URL
  })
  const environment = {
    blobs: blobs as RunningBlobsServer,
    /** The current test's log lines. */
    logs: logs as LogLine[],
    context: () => fakeContext({ deployContext }),
    repositories(): Repositories {
      return openRepositories(environment.context())
    },
    /** Calls `handler` with a JSON body and the admin token; its answer once background work settled. */
    async call(handler: Handler, path: string, body: unknown, token: string | null = ADMIN_TOKEN) {
      const context = environment.context()
      const response = await handler(jsonRequest(path, body, { token }), context)
      await context.settled()
      return readJson(response)
    },
    /** POSTs a raw body with the given signature header to the webhook handler. */
    async webhook(handler: Handler, rawBody: string, signature: string | null) {
      const headers: Record<string, string> = {}
      if (signature !== null) headers['X-Stock-Signature'] = signature
      const context = environment.context()
      const response = await handler(
        jsonRequest('/api/stock-webhook', rawBody, { token: null, headers }),
        context,
      )
      await context.settled()
      return readJson(response)
    },
  }
  return environment
}

/** `t=<seconds>,v1=<hex>` for `body`, signed with each of `secrets`, at `seconds`. */
export function signatureHeader(
  body: string,
  secrets: string[] = [WEBHOOK_SECRET],
  seconds = Math.floor(Date.now() / 1000),
): string {
  return [
    `t=${seconds}`,
    ...secrets.map((secret) => `v1=${webhookSignature(secret, seconds, body)}`),
  ].join(',')
}
