import { expectedToken } from '../http/auth.js'
import type { AppConfig } from '../config.js'
import { HttpError } from '../http/errors.js'
import { createResendMailer } from '../notifiers/resendMailer.js'
import type { Logger } from '../log.js'
import { openRepositories } from '../storage/repositories.js'
import { batchAllowanceFor, type DeliveryOptions } from './deliverRestockNotification.js'
import { openDeliveryJobStore } from './deliveryJobStore.js'
import { deliveryTrigger } from './deliveryTrigger.js'
import { MissingUnsubscribeSecretError } from '../subscriptions/unsubscribeToken.js'
import type { RequestContext } from '../requestContext.js'

export interface DeliveryScope {
  /** Origin of the incoming request (this deploy). */
  origin: string
  context: RequestContext
  config: AppConfig
  log: Logger
}

/** Starts the background delivery function from a request of this deploy. */
export function startDeliveryFrom(scope: DeliveryScope): (notificationId: string) => Promise<void> {
  return deliveryTrigger({
    origin: scope.origin,
    token: expectedToken('admin', scope.config) ?? '',
    log: scope.log,
    defer: (work) => scope.context.waitUntil?.(work),
  })
}

/** Everything the background delivery needs, from the site configuration (Resend, secret, timeouts). */
export function deliveryOptionsFrom(scope: DeliveryScope): DeliveryOptions {
  const { config, log } = scope
  if (!config.resendApiKey || !config.resendFromEmail) {
    log.error(
      'restock.delivery.misconfigured',
      new Error('RESEND_API_KEY or RESEND_FROM_EMAIL is not set'),
    )
    throw new HttpError(503, 'Email delivery is not configured')
  }
  if (!config.unsubscribeSecret) {
    log.error('restock.delivery.misconfigured', new MissingUnsubscribeSecretError())
    throw new HttpError(503, 'Email delivery is not configured: UNSUBSCRIBE_SECRET is not set')
  }
  return {
    repositories: openRepositories(scope.context),
    jobs: openDeliveryJobStore(scope.context),
    mailer: createResendMailer({
      apiKey: config.resendApiKey,
      from: config.resendFromEmail,
      timeoutMs: config.outboundTimeoutMs,
      log,
    }),
    siteUrl: config.siteUrl,
    unsubscribeSecret: config.unsubscribeSecret,
    log,
    batchAllowanceMs: batchAllowanceFor(config.outboundTimeoutMs),
    continueLater: startDeliveryFrom(scope),
  }
}
