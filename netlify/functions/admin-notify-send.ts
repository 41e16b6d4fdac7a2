import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { sendRestockNotification } from '../../src/lib/restock/sendRestockNotification.js'
import { parseSendRequest } from '../../src/lib/restock/sendRequest.js'
import { openServices } from '../../src/lib/services.js'

/** Options of `adminNotifySend`. */
export interface AdminNotifySendOptions {
  /** The clock of the send (and of `sendAt`'s checks). Default: `Date.now`. */
  now?: () => number
}

/**
 * POST /api/admin/notify/send (§4.8): a restock e-mail to the product's waiting subscribers, now
 * or at `sendAt`. The deployed function is `adminNotifySend()`, on the wall clock.
 */
export function adminNotifySend({ now }: AdminNotifySendOptions = {}) {
  return defineEndpoint({
    methods: ['POST'],
    auth: 'admin',
    // why: §4.8 fixes the order of the field messages, which parseSendRequest checks by hand
    body: z.record(z.string(), z.unknown()),
    handle: async ({ req, context, body, config, log, actor }) =>
      sendRestockNotification(
        parseSendRequest(body),
        openServices(context, config, log, { origin: new URL(req.url).origin, actor, now }),
      ),
  })
}

export default adminNotifySend()

export const config: Config = { path: '/api/admin/notify/send' }
