import { z } from 'zod'
import { count, slug, timestamp } from './answerParts.js'
import { reservationRecord, subscriptionRecord } from './recordAnswers.js'

/** Answers about consent, opt-out and personal data (docs/compliance.md; responseSchemas.ts). */

export const unsubscribedAnswer = z.strictObject({ success: z.literal(true) })

// --- consent, opt-out and personal data (docs/compliance.md) ---

const consentRecord = z
  .strictObject({
    id: z.string().regex(/^cns_/),
    emailHash: z.string().regex(/^[0-9a-f]{64}$/),
    kind: z.enum(['restock-notice', 'reservation', 'restock-line']),
    recordId: z.string(),
    productSlug: slug,
    source: z.enum(['widget', 'form', 'api']),
    wordingVersion: z.string(),
    clientNetwork: z
      .string()
      .nullable()
      .meta({ examples: ['203.0.113.0/24'] }),
    createdAt: timestamp,
    wordingText: z.string().nullable().meta({ description: 'The wording the shopper saw.' }),
  })
  .meta({ description: 'A consent record with the text of its wording version.' })

export const personExport = z.strictObject({
  success: z.literal(true),
  email: z.string().meta({ description: 'The address asked about; empty for a LINE request.' }),
  lineUserId: z
    .string()
    .optional()
    .meta({ description: 'The LINE user asked about (a request by `lineUserId`).' }),
  reservations: z.array(reservationRecord),
  subscriptions: z.array(subscriptionRecord),
  consents: z.array(consentRecord),
  notices: z.array(
    z.strictObject({ notificationId: z.string(), productSlug: slug, sentAt: timestamp }),
  ),
  orders: z
    .array(z.strictObject({ orderId: z.string(), productSlug: slug, notificationId: z.string() }))
    .meta({
      description:
        'Orders of the address the order webhook counted for a restock notice (linked by the address hash only).',
    }),
  suppressed: z.boolean(),
})

export const personErased = z.strictObject({
  success: z.literal(true),
  erased: z.strictObject({
    reservations: count,
    subscriptions: count,
    consents: count,
    notices: count.meta({ description: 'Notification histories the address was removed from.' }),
    claims: count,
    deliveries: count.meta({ description: 'Delivery snapshots the address was removed from.' }),
    orders: count.meta({
      description:
        'Links between the address (its hash) and orders counted for restock notices, removed; the counts stay, naming nobody.',
    }),
    suppressionKept: z
      .boolean()
      .meta({ description: 'The address stays suppressed, as its hash only.' }),
  }),
})

export const suppressionList = z.strictObject({
  success: z.literal(true),
  suppressions: z.array(
    z.strictObject({
      emailHash: z.string().regex(/^[0-9a-f]{64}$/),
      email: z.string().nullable().meta({ description: 'null once its person was erased.' }),
      reason: z.enum(['bounce', 'complaint']),
      suppressedAt: timestamp,
    }),
  ),
})

export const suppressionLifted = z.strictObject({ success: z.literal(true) })

export const webhookAnswer = z.strictObject({
  success: z.literal(true),
  handled: z.enum(['suppressed', 'ignored', 'duplicate']),
  reason: z.enum(['bounce', 'complaint']).optional(),
  unsubscribed: count.optional(),
  eventType: z.string().optional(),
})

export const confirmedAnswer = z.strictObject({
  success: z.literal(true),
  alreadyConfirmed: z.boolean(),
})

export const keptAnswer = z.strictObject({
  success: z.literal(true),
  alreadyKept: z.boolean().meta({ description: 'The link had kept the sign-up before.' }),
})

export const holdClaimAnswer = z.strictObject({
  success: z.literal(true),
  reservationId: z
    .string()
    .regex(/^res_/)
    .meta({ description: 'The reservation the held unit became.' }),
  alreadyReserved: z
    .boolean()
    .meta({ description: 'The hold had become this reservation before (a repeated claim).' }),
})

export const signupExpiryAnswer = z.strictObject({
  success: z.literal(true),
  asked: count.meta({
    description: 'Sign-ups e-mailed 「引き続き入荷のお知らせを希望されますか」.',
  }),
  expired: count.meta({
    description: 'Sign-ups ended unanswered (`unsubscribed`, `unsubscribeReason: "expired"`).',
  }),
  deferred: count.meta({
    description:
      'Questions due but not sent (quiet hours, or the provider refused): the next run asks.',
  }),
})

export const purgeAnswer = z.strictObject({
  success: z.literal(true),
  deleted: z.strictObject({
    subscriptions: count,
    unconfirmed: count,
    consents: count,
    stockEvents: count.meta({ description: 'Stock webhook replay marks older than 30 days.' }),
    orderEvents: count.meta({ description: 'Order webhook replay marks older than 30 days.' }),
    exports: count.meta({ description: 'CSV exports of lists made more than a day ago.' }),
    idempotencyKeys: count.meta({
      description: 'Idempotency-Key marks of days before yesterday (UTC).',
    }),
    lineLoginStates: count.meta({
      description: 'Marks of LINE Login states spent more than a day ago (replay protection).',
    }),
    legacyListing: count.meta({
      description:
        'Blobs older deploys left of their listings (snapshots/, journal/, the v1 history index).',
    }),
  }),
})
