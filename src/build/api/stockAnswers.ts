import { z } from 'zod'
import { count, timestamp } from './answerParts.js'

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
})

export const stockRow = z.strictObject({
  productSlug: z.string(),
  quantity: count.nullable().meta({ description: 'null while no source has reported one.' }),
  updatedAt: timestamp.nullable().meta({ description: 'When the quantity last changed.' }),
  waiting: count.meta({ description: 'Pending, non-archived subscribers.' }),
  auto: autoNoticeAnswer.nullable(),
  nextWaveAt: timestamp
    .nullable()
    .meta({ description: 'When the next automatic wave is due, or null when none is.' }),
})

export const stockListAnswer = z.strictObject({
  success: z.literal(true),
  stock: z.array(stockRow),
})

const stockChange = z.strictObject({
  productSlug: z.string(),
  quantity: count,
  previous: count.nullable().meta({ description: 'The quantity before (null: unknown).' }),
})

const stockErrors = z
  .array(
    z.strictObject({
      productSlug: z.string().optional(),
      sku: z.string().optional(),
      error: z.string(),
    }),
  )
  .optional()
  .meta({ description: 'Items naming no product (`Product not found`); omitted when none.' })

export const stockUpdated = z.strictObject({
  success: z.literal(true),
  updated: z.array(stockChange),
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
  auto: autoNoticeAnswer,
})

export const stockReconciled = z.strictObject({
  success: z.literal(true),
  feed: z.enum(['read', 'failed', 'not-configured']),
  wavesSent: count.meta({ description: 'Automatic waves this run sent.' }),
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
