import { UnauthorizedError } from '../errors.js'
import type { VerifyBodyInput } from '../http/endpoint.js'
import { requireLine } from '../line/lineLogin.js'
import { isValidLineSignature, LINE_SIGNATURE_HEADER } from '../signing/lineSignature.js'

/**
 * The `verifyBody` of POST /api/line-webhook: `X-Line-Signature` over the raw body with the
 * Messaging API channel's secret, before anything is parsed; a bad or missing one is a 401,
 * LINE not configured a 503.
 */
export function lineWebhookCheck({ req, rawBody, config, log }: VerifyBodyInput): void {
  const settings = requireLine(config, log)
  const header = req.headers.get(LINE_SIGNATURE_HEADER)
  if (!isValidLineSignature(header, rawBody, settings.messagingChannelSecret)) {
    log.warn('line.webhook.refused', { reason: 'bad or missing signature' })
    throw new UnauthorizedError('Invalid signature')
  }
}
