import { z } from 'zod'
import { count, notificationId, variantId } from './answerParts.js'

/** Answers of the order webhook (responseSchemas.ts). */

const orderedProduct = z.strictObject({
  productSlug: z.string(),
  variant: variantId.optional().meta({
    description:
      'The variant bought, when the line named it by its sku: only the sign-ups for that variant are closed. Absent when the line named the whole product.',
  }),
  quantity: z.int().min(1).meta({ description: "Units bought (the order's lines for it added)." }),
  closedSignups: count.meta({
    description:
      'The buyer’s pending sign-ups for the product this order closed (`unsubscribed`, `unsubscribeReason: "purchased"`).',
  }),
  notificationId: notificationId.nullable().meta({
    description:
      'The restock notice the order is counted for: the latest that reached the buyer for this product within ATTRIBUTION_DAYS before the order; null when none did.',
  }),
  clicked: z.boolean().meta({ description: "Whether the buyer followed that notice's link." }),
})

export const orderWebhookAnswer = z.union([
  z.strictObject({ success: z.literal(true), duplicate: z.literal(true) }),
  z.strictObject({
    success: z.literal(true),
    duplicate: z.literal(false),
    products: z.array(orderedProduct),
    errors: z
      .array(
        z.strictObject({
          productSlug: z.string().optional(),
          sku: z.string().optional(),
          error: z.string(),
        }),
      )
      .optional()
      .meta({ description: 'Items naming no product (`Product not found`); omitted when none.' }),
  }),
])
