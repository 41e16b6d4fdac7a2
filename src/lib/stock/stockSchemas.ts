import { z } from '../../generated/zod.js'
import { isUsableRecordId, UNUSABLE_ID_MESSAGE } from '../storage/recordIds.js'

/**
 * Request bodies of the stock endpoints. As with the bulk endpoints, nothing changes unless
 * every item has the right shape; a well-formed item naming no product is reported in `errors`.
 */

export const ITEMS_REQUIRED = 'items array is required'
export const ITEMS_EMPTY = 'items array cannot be empty'
/** Most items one stock request may carry. */
export const MAX_STOCK_ITEMS = 500
export const ITEMS_TOO_MANY = `items array cannot exceed ${MAX_STOCK_ITEMS} items`
export const ADMIN_ITEM_INVALID =
  'Each item needs a productSlug and a quantity (an integer, 0 or more)'
export const WEBHOOK_ITEM_INVALID =
  'Each item needs a productSlug or sku and a quantity (an integer, 0 or more)'
export const EVENT_ID_REQUIRED = 'id is required'
/** Most units one quantity may say (a typo such as 1e12 is refused). */
export const MAX_QUANTITY = 1_000_000

function quantity(message: string) {
  return z
    .number({ error: message })
    .int({ error: message })
    .min(0, { error: message })
    .max(MAX_QUANTITY, { error: message })
}

function usable(message: string) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .refine(isUsableRecordId, { error: UNUSABLE_ID_MESSAGE })
}

function itemsOf<T extends z.ZodType>(item: T) {
  return z
    .array(z.unknown(), { error: ITEMS_REQUIRED })
    .min(1, ITEMS_EMPTY)
    .max(MAX_STOCK_ITEMS, ITEMS_TOO_MANY)
    .pipe(z.array(item))
}

/**
 * `variant` of a stock item: the variant's id, for a product with variants (a sku names its
 * variant by itself). `null` and `""` count as not given.
 */
function variantField(message: string) {
  return z
    .string({ error: message })
    .trim()
    .nullish()
    .transform((value) => value || undefined)
    .optional()
}

/** POST /api/admin/stock: `{items: [{productSlug, variant?, quantity}]}`. */
export const adminStockSchema = z.object({
  items: itemsOf(
    z.object(
      {
        productSlug: usable(ADMIN_ITEM_INVALID),
        variant: variantField(ADMIN_ITEM_INVALID),
        quantity: quantity(ADMIN_ITEM_INVALID),
      },
      { error: ADMIN_ITEM_INVALID },
    ),
  ),
})

const webhookItem = z
  .object(
    {
      productSlug: z.string({ error: WEBHOOK_ITEM_INVALID }).trim().optional(),
      sku: z
        .union([z.string(), z.number()], { error: WEBHOOK_ITEM_INVALID })
        .transform((value) => String(value).trim())
        .optional(),
      variant: variantField(WEBHOOK_ITEM_INVALID),
      quantity: quantity(WEBHOOK_ITEM_INVALID),
    },
    { error: WEBHOOK_ITEM_INVALID },
  )
  .refine((item) => Boolean(item.productSlug || item.sku), { error: WEBHOOK_ITEM_INVALID })

/** POST /api/stock-webhook: `{id, items: [{productSlug (+ variant) | sku, quantity}]}`. */
export const stockWebhookSchema = z.object({
  id: usable(EVENT_ID_REQUIRED),
  items: itemsOf(webhookItem),
})

/**
 * A stock line from any source: a product or variant named by sku, or a product by slug (and,
 * for a product with variants, the variant by its id), and its quantity.
 */
export interface StockLine {
  productSlug?: string
  variant?: string
  sku?: string
  quantity: number
}
