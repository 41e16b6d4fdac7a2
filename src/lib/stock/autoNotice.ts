import { z } from '../../generated/zod.js'
import type { AuditRecorder } from '../audit/auditTrail.js'
import { InvalidInputError, NotFoundError } from '../errors.js'
import { findProduct, findVariant, targetKey } from '../productCatalogue.js'
import { isUsableRecordId, UNUSABLE_ID_MESSAGE } from '../storage/recordIds.js'
import type { AutoNotice, StockRecord, StockRef, StockRepository } from '../storage/stockRecords.js'

/**
 * A product's automatic restock notice (POST /api/admin/notify/auto): when its stock rises from 0
 * (or unknown) the waves start, `perUnit` subscribers per unit in stock each, `intervalMinutes`
 * apart. Turning it off stops the waves still due; turning it on acts at the next rise. A
 * product with variants has the settings per variant (its stock and waves are per variant): a
 * request naming a `variant` saves that variant's, one naming none saves every variant's.
 */

/** Subscribers per unit in stock, by default. */
export const DEFAULT_PER_UNIT = 1
/** Minutes between two waves, by default. */
export const DEFAULT_INTERVAL_MINUTES = 60
/** The shortest interval: the scheduled sweep that sends due waves runs every 10 minutes. */
export const MIN_INTERVAL_MINUTES = 10
/** A week. */
export const MAX_INTERVAL_MINUTES = 10_080
export const MAX_PER_UNIT = 100
/** Limits of the texts, in characters (those of a manual send). */
export const AUTO_TEXT_LIMITS = { emailTitle: 200, emailBody: 20000 } as const

const PER_UNIT_INVALID = `perUnit must be an integer from 1 to ${MAX_PER_UNIT}`
const INTERVAL_INVALID = `intervalMinutes must be an integer from ${MIN_INTERVAL_MINUTES} to ${MAX_INTERVAL_MINUTES}`
const TITLE_NOT_ONE_LINE = 'emailTitle must be a single line (no line breaks or control characters)'

function text(field: keyof typeof AUTO_TEXT_LIMITS) {
  const limit = AUTO_TEXT_LIMITS[field]
  return z
    .string({ error: `${field} must be a string` })
    .max(limit, { error: `${field} must be at most ${limit} characters` })
    .optional()
}

/**
 * `{productSlug, enabled, emailTitle?, emailBody?, perUnit?, intervalMinutes?}`. The texts are
 * required to turn the notice on; left out while off, the stored ones are kept.
 */
export const autoNoticeSchema = z
  .object({
    productSlug: z
      .string({ error: 'productSlug is required' })
      .trim()
      .min(1, { error: 'productSlug is required' })
      .refine(isUsableRecordId, { error: UNUSABLE_ID_MESSAGE }),
    variant: z
      .string({ error: 'variant must be a string' })
      .nullish()
      .transform((value) => value || undefined)
      .optional(),
    enabled: z.boolean({ error: 'enabled must be true or false' }),
    emailTitle: text('emailTitle'),
    emailBody: text('emailBody'),
    perUnit: z
      .number({ error: PER_UNIT_INVALID })
      .int({ error: PER_UNIT_INVALID })
      .min(1, { error: PER_UNIT_INVALID })
      .max(MAX_PER_UNIT, { error: PER_UNIT_INVALID })
      .optional(),
    intervalMinutes: z
      .number({ error: INTERVAL_INVALID })
      .int({ error: INTERVAL_INVALID })
      .min(MIN_INTERVAL_MINUTES, { error: INTERVAL_INVALID })
      .max(MAX_INTERVAL_MINUTES, { error: INTERVAL_INVALID })
      .optional(),
  })
  .superRefine((body, context) => {
    if (body.emailTitle && /[\p{Cc}\u2028\u2029]/u.test(body.emailTitle.trim())) {
      context.addIssue({ code: 'custom', message: TITLE_NOT_ONE_LINE })
    }
  })

export type AutoNoticeRequest = z.output<typeof autoNoticeSchema>

const onOff = (auto: AutoNotice | null | undefined) => (auto ? (auto.enabled ? 'on' : 'off') : null)

/** What was saved: for each product or variant (`variant` absent for a product without). */
export interface SavedAutoNotice {
  variant?: string
  auto: AutoNotice
}

/**
 * Saves the settings of the product, of the variant the request names, or of every variant of a
 * product with variants named without one (one after another, each its own compare-and-swap),
 * and records each change (`settings`, from and to `on` / `off`) in `audit` when given.
 * NotFoundError when no product has this slug or the product no such variant; InvalidInputError
 * when turning on without a title or body (sent now or stored before).
 */
export async function saveAutoNotice(
  request: AutoNoticeRequest,
  stock: StockRepository,
  audit?: AuditRecorder,
): Promise<SavedAutoNotice[]> {
  const product = findProduct(request.productSlug)
  if (!product) throw new NotFoundError('Product not found')
  const { productSlug, variant } = request
  if (variant !== undefined && (!product.variants || !findVariant(product, variant))) {
    throw new NotFoundError('Variant not found')
  }
  const refs: StockRef[] =
    variant !== undefined
      ? [{ productSlug, variant }]
      : product.variants
        ? product.variants.map((each) => ({ productSlug, variant: each.id }))
        : [{ productSlug }]
  const saved: SavedAutoNotice[] = []
  for (const ref of refs) {
    const auto = await saveOne(request, ref, stock, audit)
    saved.push(ref.variant === undefined ? { auto } : { variant: ref.variant, auto })
  }
  return saved
}

async function saveOne(
  request: AutoNoticeRequest,
  ref: StockRef,
  stock: StockRepository,
  audit?: AuditRecorder,
): Promise<AutoNotice> {
  let saved: AutoNotice | null = null
  let previous: AutoNotice | null = null
  await stock.change(ref, (current: StockRecord) => {
    const before = current.auto
    previous = before ?? null
    const auto: AutoNotice = {
      enabled: request.enabled,
      emailTitle: (request.emailTitle ?? before?.emailTitle ?? '').trim(),
      emailBody: request.emailBody ?? before?.emailBody ?? '',
      perUnit: request.perUnit ?? before?.perUnit ?? DEFAULT_PER_UNIT,
      intervalMinutes:
        request.intervalMinutes ?? before?.intervalMinutes ?? DEFAULT_INTERVAL_MINUTES,
    }
    if (auto.enabled && !auto.emailTitle) throw new InvalidInputError('emailTitle is required')
    if (auto.enabled && !auto.emailBody.trim()) throw new InvalidInputError('emailBody is required')
    saved = auto
    const waves = auto.enabled ? current.waves : { ...current.waves, dueAt: null }
    return { ...current, auto, waves }
  })
  if (!saved) throw new Error('saveAutoNotice: the change never ran')
  await audit?.record([
    {
      action: 'settings',
      record: { type: 'product', id: targetKey(ref), productSlug: ref.productSlug },
      from: onOff(previous),
      to: onOff(saved),
    },
  ])
  return saved
}

/** `{product}` and `{url}` in a title or body, filled for one product. */
export function fillPlaceholders(
  template: string,
  values: { product: string; url: string },
): string {
  return template.replaceAll('{product}', values.product).replaceAll('{url}', values.url)
}
