import { z } from '../../generated/zod.js'
import { parseIsoTime } from '../clock.js'
import { EMAIL_INVALID, EMAIL_REQUIRED } from '../compliance/personRequest.js'
import { isUsableRecordId, UNUSABLE_ID_MESSAGE } from '../storage/recordIds.js'

/**
 * The order webhook's body (POST /api/order-webhook): `{id, email, items: [{productSlug | sku,
 * quantity}], total?, currency?, at?}`. Nothing is applied unless every item has that shape; an
 * item naming no product is reported in `errors` and the others are applied.
 */

export const ORDER_ID_REQUIRED = 'id is required'
export const ORDER_ITEMS_REQUIRED = 'items array is required'
export const ORDER_ITEMS_EMPTY = 'items array cannot be empty'
/** Most items one order may carry. */
export const MAX_ORDER_ITEMS = 500
export const ORDER_ITEMS_TOO_MANY = `items array cannot exceed ${MAX_ORDER_ITEMS} items`
export const ORDER_ITEM_INVALID =
  'Each item needs a productSlug or sku and a quantity (an integer, 1 or more)'
export const TOTAL_INVALID = 'total must be a number, 0 or more'
export const CURRENCY_INVALID = 'currency must be a three-letter code such as JPY'
export const ORDERED_AT_INVALID =
  'at must be an ISO 8601 time with its offset, e.g. 2026-11-24T10:30:00+09:00'
/** Most units one item may say, and the largest total (a typo such as 1e15 is refused). */
const MAX_QUANTITY = 1_000_000
const MAX_TOTAL = 1_000_000_000_000

const item = z
  .object(
    {
      productSlug: z.string({ error: ORDER_ITEM_INVALID }).trim().optional(),
      sku: z
        .union([z.string(), z.number()], { error: ORDER_ITEM_INVALID })
        .transform((value) => String(value).trim())
        .optional(),
      quantity: z
        .number({ error: ORDER_ITEM_INVALID })
        .int({ error: ORDER_ITEM_INVALID })
        .min(1, { error: ORDER_ITEM_INVALID })
        .max(MAX_QUANTITY, { error: ORDER_ITEM_INVALID }),
    },
    { error: ORDER_ITEM_INVALID },
  )
  .refine((line) => Boolean(line.productSlug || line.sku), { error: ORDER_ITEM_INVALID })

/** POST /api/order-webhook. */
export const orderWebhookSchema = z.object({
  id: z
    .string({ error: ORDER_ID_REQUIRED })
    .trim()
    .min(1, { error: ORDER_ID_REQUIRED })
    .refine(isUsableRecordId, { error: UNUSABLE_ID_MESSAGE }),
  email: z
    .string({ error: EMAIL_REQUIRED })
    .trim()
    .min(1, { error: EMAIL_REQUIRED })
    .max(254, { error: EMAIL_INVALID })
    .regex(z.regexes.email, { error: EMAIL_INVALID }),
  items: z
    .array(z.unknown(), { error: ORDER_ITEMS_REQUIRED })
    .min(1, ORDER_ITEMS_EMPTY)
    .max(MAX_ORDER_ITEMS, ORDER_ITEMS_TOO_MANY)
    .pipe(z.array(item)),
  total: z
    .number({ error: TOTAL_INVALID })
    .min(0, { error: TOTAL_INVALID })
    .max(MAX_TOTAL, { error: TOTAL_INVALID })
    .optional(),
  currency: z
    .string({ error: CURRENCY_INVALID })
    .trim()
    .regex(/^[A-Za-z]{3}$/, { error: CURRENCY_INVALID })
    .transform((code) => code.toUpperCase())
    .optional(),
  at: z
    .string({ error: ORDERED_AT_INVALID })
    .trim()
    .refine((text) => parseIsoTime(text) !== null, { error: ORDERED_AT_INVALID })
    .optional(),
})

export type OrderEvent = z.output<typeof orderWebhookSchema>
