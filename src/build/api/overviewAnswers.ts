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
      deliveryMode,
    }),
  ),
  totalSearches: count,
  distinctQueries: count,
  distinctZeroResultQueries: count,
  topQueries: z.array(queryTrend),
  zeroResultQueries: z.array(queryTrend),
})
