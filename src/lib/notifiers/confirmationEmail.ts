import type { Logger } from '../log.js'
import { CONFIRMATIONS_PER_HOUR, type ConfirmationLimits } from '../storage/confirmationLimits.js'
import type { DeliveryResult } from './delivery.js'
import type { Mailer, OutgoingEmail } from './resendMailer.js'

export interface ConfirmationOptions {
  mailer: Pick<Mailer, 'send' | 'destination'>
  /** The hourly counters. */
  limits: ConfirmationLimits
  /** Resend `Idempotency-Key` of this confirmation. */
  idempotencyKey: string
  /** Id of the record confirmed (for the log line; never the address). */
  recordId: string
  now: Date
  log: Logger
}

/**
 * Sends a confirmation e-mail unless its address has had CONFIRMATIONS_PER_HOUR this hour; then
 * nothing is sent (`skipped`) and `email.confirmation_capped` is logged with the record's id.
 */
export async function sendConfirmation(
  email: OutgoingEmail,
  options: ConfirmationOptions,
): Promise<DeliveryResult> {
  const { mailer, log } = options
  if (!(await options.limits.take(email.to, options.now))) {
    log.warn('email.confirmation_capped', {
      recordId: options.recordId,
      perHour: CONFIRMATIONS_PER_HOUR,
      reason: 'this address had its confirmation e-mails for this hour; the record is stored',
    })
    return { destination: mailer.destination, outcome: 'skipped', error: 'hourly cap' }
  }
  return mailer.send(email, { idempotencyKey: options.idempotencyKey })
}
