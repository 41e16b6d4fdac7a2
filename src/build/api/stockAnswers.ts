import { z } from 'zod'
import { count, notificationId, timestamp, variantId } from './answerParts.js'

/**
 * Answers about stock and automatic restock notices, and the upkeep of the record indexes
 * (responseSchemas.ts).
 */

// Stock and automatic restock notices

export const autoNoticeAnswer = z.strictObject({
  enabled: z.boolean(),
  emailTitle: z.string(),
  emailBody: z.string(),
  perUnit: z.int().min(1).meta({ description: 'Subscribers notified per unit in stock.' }),
  intervalMinutes: z.int().min(1).meta({ description: 'Minutes between two waves.' }),
  holdHours: z.int().min(0).max(168).optional().meta({
    description:
      'Hours a unit is held (お取り置き) for each person a wave e-mails, counted from the e-mail; 0 or absent: no holds.',
  }),
})

export const holdCountsAnswer = z
  .strictObject({
    open: count.meta({
      description: 'Holds whose unit is kept: e-mailed and not yet ended, or being sent.',
    }),
    claimed: count.meta({ description: 'Holds a shopper turned into a reservation.' }),
    expired: count.meta({ description: 'Holds that ended unclaimed (their unit went back).' }),
  })
  .meta({ description: 'The units held for people a restock e-mail named (お取り置き).' })

export const stockRow = z.strictObject({
  productSlug: z.string(),
  variant: variantId.optional().meta({
    description:
      'The variant of this line: a product with variants has one line per variant (its SKU is in the catalogue); absent for a product without variants.',
  }),
  quantity: count.nullable().meta({ description: 'null while no source has reported one.' }),
  updatedAt: timestamp.nullable().meta({ description: 'When the quantity last changed.' }),
  waiting: count.meta({
    description:
      'Subscribers waiting: pending, not archived, not opted out (or consented again after), confirmed where double opt-in asked for it, address not suppressed. Who a send or the next wave would e-mail.',
  }),
  notWaiting: z
    .strictObject({ optedOut: count, unconfirmed: count, suppressed: count })
    .meta({ description: 'Pending subscribers who are not waiting, by reason.' }),
  lineWaiting: count.meta({
    description: 'Of `waiting`, those who signed up with LINE (a send pushes them in LINE).',
  }),
  auto: autoNoticeAnswer.nullable(),
  holds: holdCountsAnswer,
  nextWaveAt: timestamp.nullable().meta({
    description:
      'When the next automatic wave goes (its due time, or the end of the quiet hours it falls in), or null when none is due.',
  }),
})

const quietHours = z
  .strictObject({
    from: z.int().min(0).max(23).meta({ description: 'The hour quiet hours start, JST.' }),
    until: z.int().min(0).max(24).meta({ description: 'The hour they end, JST.' }),
  })
  .nullable()
  .meta({
    description:
      '`QUIET_HOURS`: automatic waves wait from `from`:00 until `until`:00 Japan time; null when off.',
  })

const lineQuota = z
  .strictObject({
    limit: count.nullable().meta({ description: 'Messages a month in the plan; null: no limit.' }),
    usage: count.meta({ description: 'Messages pushed this month.' }),
    remaining: count.nullable().meta({ description: 'What is left this month; null: no limit.' }),
  })
  .nullable()
  .meta({
    description:
      'The LINE official account’s messages this month (the Messaging API’s quota endpoints); null when LINE is not configured or did not answer.',
  })

export const stockListAnswer = z.strictObject({
  success: z.literal(true),
  stock: z.array(stockRow),
  quietHours,
  line: lineQuota,
})

const startedWave = z
  .discriminatedUnion('state', [
    z.strictObject({
      state: z.literal('sent'),
      notificationId,
      recipients: count.meta({ description: 'Subscribers the wave e-mailed (or recorded).' }),
      deliveryMode: z.enum(['email', 'record-only']).meta({
        description: '`record-only`: no e-mail provider; the recipients were only marked notified.',
      }),
      nextAt: timestamp.meta({ description: 'When the next wave is due while stock lasts.' }),
    }),
    z.strictObject({ state: z.literal('nobody-waiting') }),
    z.strictObject({
      state: z.literal('quiet-hours'),
      sendsAt: timestamp.meta({ description: 'The end of the quiet hours: when the wave goes.' }),
    }),
    z.strictObject({ state: z.literal('later') }),
  ])
  .optional()
  .meta({
    description:
      'Present when this change started the automatic waves: what the first wave did. `quiet-hours`: the change came inside the quiet hours; the wave goes at their end (`sendsAt`). `later`: another send held the product or the wave failed; it stays due for the scheduled sweep.',
  })

const stockChange = z.strictObject({
  productSlug: z.string(),
  variant: variantId.optional().meta({
    description: 'The variant whose stock changed; absent for a product without variants.',
  }),
  quantity: count,
  previous: count.nullable().meta({ description: 'The quantity before (null: unknown).' }),
  wave: startedWave,
})

const stockErrors = z
  .array(
    z.strictObject({
      productSlug: z.string().optional(),
      sku: z.string().optional(),
      variant: z.string().optional(),
      error: z.string(),
    }),
  )
  .optional()
  .meta({
    description:
      'Items naming no product (`Product not found`), a product with variants without its `variant` (`variant is required: this product has variants`), or a variant the product does not have (`Variant not found`); omitted when none.',
  })

export const stockUpdated = z.strictObject({
  success: z.literal(true),
  updated: z.array(stockChange),
  errors: stockErrors,
})

export const stockPreviewAnswer = z.strictObject({
  success: z.literal(true),
  changes: z.array(
    z.strictObject({
      productSlug: z.string(),
      variant: variantId.optional(),
      previous: count.nullable().meta({ description: 'The quantity now (null: unknown).' }),
      quantity: count.meta({ description: 'The quantity the change would set.' }),
      notify: count.meta({
        description:
          'Waiting subscribers the automatic wave this change would start e-mails at once (0: it starts none).',
      }),
    }),
  ),
  errors: stockErrors,
})

export const stockWebhookAnswer = z.union([
  z.strictObject({ success: z.literal(true), duplicate: z.literal(true) }),
  z.strictObject({
    success: z.literal(true),
    duplicate: z.literal(false),
    updated: z.array(stockChange),
    errors: stockErrors,
  }),
])

export const autoSaved = z.strictObject({
  success: z.literal(true),
  productSlug: z.string(),
  variant: variantId.optional().meta({ description: 'The variant whose settings were saved.' }),
  auto: autoNoticeAnswer.meta({
    description:
      'The settings saved (a product with variants named without `variant`: those of its first variant; `variants` lists each).',
  }),
  variants: z
    .array(z.strictObject({ variant: variantId, auto: autoNoticeAnswer }))
    .optional()
    .meta({
      description:
        'A product with variants named without `variant`: the settings saved on each variant (each keeps its own texts when none were sent).',
    }),
})

export const stockReconciled = z.strictObject({
  success: z.literal(true),
  feed: z.enum(['read', 'failed', 'not-configured']),
  wavesSent: count.meta({ description: 'Automatic waves this run sent.' }),
  scheduledSent: count.meta({
    description: 'Sends staff scheduled that this run sent (or found failed).',
  }),
  holdsEnded: count.meta({
    description:
      'Products (or variants) whose ended holds (お取り置き) this run closed, their units given back.',
  }),
  quietHoursWaiting: count.meta({
    description: 'Automatic waves due but waiting for the end of the quiet hours.',
  }),
  left: count.meta({
    description:
      'Sends still due after this run (another send held the product, or past its time budget): the next run takes them first.',
  }),
  changed: count.meta({ description: 'Products whose quantity the feed changed.' }),
})

// Record indexes

export const indexVerifyAnswer = z.strictObject({
  success: z.literal(true),
  verified: count.meta({ description: 'Index partitions compared with their key listing.' }),
  rebuilding: z.boolean().meta({
    description: 'Some index is missing: the background rebuild was started.',
  }),
})
