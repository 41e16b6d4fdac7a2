import { z } from 'zod'
import { count, deliveryMode, timestamp, variantId } from './answerParts.js'

/**
 * The answer of the dashboard overview: the pictures of demand (docs/dashboard.md;
 * responseSchemas.ts).
 */

const jstDay = z.string().meta({ description: 'A JST day.', examples: ['2026-11-23'] })
const queryTrend = z.strictObject({
  query: z.string(),
  count: z.int().min(1),
  previous: count.meta({ description: 'The same query in the period before.' }),
})

/** POST /api/admin/overview: the pictures of demand (docs/dashboard.md "Overview"). */
export const overviewAnswer = z.strictObject({
  success: z.literal(true),
  days: z.union([z.literal(7), z.literal(30), z.literal(90)]),
  from: jstDay,
  to: jstDay,
  series: z.array(
    z.strictObject({
      day: jstDay,
      reservations: count,
      signups: count,
      sent: count,
      failed: count,
      searches: count,
      zeroSearches: count,
    }),
  ),
  products: z.array(
    z.strictObject({
      productSlug: z.string(),
      title: z.string(),
      waiting: count,
      reservedUnits: count,
      cap: count.nullable(),
      variants: z
        .array(
          z.strictObject({
            variant: variantId,
            name: z.string(),
            waiting: count,
            reservedUnits: count,
            cap: count.nullable(),
          }),
        )
        .optional()
        .meta({
          description:
            'A product with variants: the demand of each variant; the product’s fields sum them (`cap` when every variant has one). Absent for a product without variants.',
        }),
    }),
  ),
  notices: z.array(
    z.strictObject({
      id: z.string(),
      productSlug: z.string(),
      title: z.string(),
      timestamp,
      sent: count,
      failed: count,
      clicks: count,
      orders: count.meta({
        description:
          'Orders counted for the notice: the order webhook found it the latest notice that reached the buyer for this product within ATTRIBUTION_DAYS.',
      }),
      ordersAfterClick: count.meta({
        description: "Of those, orders whose buyer had followed the notice's product link.",
      }),
      units: count.meta({ description: "Units those orders bought of the notice's product." }),
      revenue: z.record(z.string().regex(/^[A-Z]{3}$/), z.number().min(0)).meta({
        description:
          'Their revenue per ISO 4217 currency (each order’s `total` shared over its units); `{}` when no order gave a total.',
      }),
      conversionRate: z.number().min(0).nullable().meta({
        description: 'Orders per e-mail sent, 0–1; null when nothing was e-mailed (record-only).',
      }),
      deliveryMode,
    }),
  ),
  totalSearches: count,
  distinctQueries: count,
  distinctZeroResultQueries: count,
  topQueries: z.array(queryTrend),
  zeroResultQueries: z.array(queryTrend),
})
