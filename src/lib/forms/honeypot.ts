import { z } from '../../generated/zod.js'
import type { Logger } from '../log.js'
import { newReservationId, newSubscriptionId } from '../storage/blobLayout.js'
import { requireTarget } from './customerForm.js'

/**
 * The honeypot of the public forms: a field `website` that the widgets render hidden from people
 * and screen readers. A person leaves it empty; a bot filling every field fills it too. Such a
 * request is answered exactly like a success (same shape, an id of the real form) while nothing
 * is stored and nothing is sent, so the bot learns nothing.
 */

export const HONEYPOT_FIELD = 'website'

// why: any value a bot may put there (a number, an object) must be accepted, never a 400
const honeypotValue = z
  .unknown()
  .optional()
  .meta({
    type: 'string',
    description:
      'Honeypot: leave empty. The widgets render it hidden from people and screen readers; a ' +
      'request with a non-empty value is answered like a success and ignored.',
  })

/** `schema` plus the optional honeypot field. */
export function withHoneypot<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) {
  return schema.extend({ [HONEYPOT_FIELD]: honeypotValue })
}

/** True when the honeypot holds anything a person could not have typed into a hidden field. */
export function isHoneypotFilled(body: { [HONEYPOT_FIELD]?: unknown }): boolean {
  const value = body[HONEYPOT_FIELD]
  if (value === undefined || value === null) return false
  return typeof value !== 'string' || value.trim() !== ''
}

/** The form fields without the honeypot, as the services expect them. */
export function withoutHoneypot<Form extends { [HONEYPOT_FIELD]?: unknown }>(
  body: Form,
): Omit<Form, typeof HONEYPOT_FIELD> {
  const form = { ...body }
  delete form[HONEYPOT_FIELD]
  return form
}

/**
 * The answer's fields to a request whose honeypot is filled, or `null` for a person's request. Called
 * after validation and before the service: an unknown product or variant still gets its 400, as
 * it would without the honeypot; otherwise the answer is a success with a decoy id, and one log line
 * (`form.honeypot`, the form's name only: nothing the sender typed).
 */
export function honeypotAnswer(
  body: { productSlug: string; variant?: string; [HONEYPOT_FIELD]?: unknown },
  form: 'reservation' | 'signup',
  services: { log: Logger; now: () => number },
): { reservationId: string } | { subscriptionId: string } | null {
  if (!isHoneypotFilled(body)) return null
  requireTarget(body)
  services.log.info('form.honeypot', { form })
  // why: an id of the real form (storage's own format) that names nothing
  return form === 'reservation'
    ? { reservationId: newReservationId() }
    : { subscriptionId: newSubscriptionId(services.now()) }
}
