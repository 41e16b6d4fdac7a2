import { parseIsoTime } from '../clock.js'
import { InvalidInputError } from '../errors.js'
import { findProduct } from '../productCatalogue.js'

/** A checked §4.8 request. */
export interface SendRequest {
  productSlug: string
  /**
   * The variant whose waiting subscribers the notice is for (its id); absent: every waiting
   * subscriber of the product, whatever variant they wait for.
   */
  variant?: string
  emailTitle: string
  emailBody: string
  /** When to send it (ms since the epoch): a scheduled send. Absent: now. */
  sendAt?: number
}

/** D6 limits, in characters. */
export const SEND_LIMITS = { productSlug: 100, emailTitle: 200, emailBody: 20000 } as const

const FIELDS = ['productSlug', 'emailTitle', 'emailBody'] as const

export const EMAIL_TITLE_NOT_ONE_LINE =
  'emailTitle must be a single line (no line breaks or control characters)'

/** The texts of a `variant` a send (or a list, or the automatic notice) cannot use. */
export const VARIANT_TEXTS = {
  notText: 'variant must be a string',
  noVariants: 'This product has no variants',
  unknown: (variant: string, known: readonly string[]) =>
    `Unknown variant ${JSON.stringify(variant.slice(0, 50))}: this product's variants are ${known.join(', ')}`,
} as const

export const SEND_AT_INVALID =
  'sendAt must be an ISO 8601 time with its offset, e.g. 2026-11-24T08:00:00+09:00'

/**
 * §4.8 checks in the documented order: every "is required" first, then the D6 lengths, then a
 * title that is not one line (CR, LF, U+2028/U+2029 or another control character inside), then
 * the optional `variant` (`checkVariant`); then `sendAt`, when given (null or absent: now), an
 * ISO 8601 time with its offset. Whether it lies ahead is the scheduling's check
 * (restock/scheduledSend.ts), on the request's clock.
 */
export function parseSendRequest(body: Record<string, unknown>): SendRequest {
  for (const field of FIELDS) {
    const value = body[field]
    if (typeof value !== 'string' || value.trim() === '') {
      throw new InvalidInputError(`${field} is required`)
    }
  }
  for (const field of FIELDS) {
    if ([...(body[field] as string)].length > SEND_LIMITS[field]) {
      throw new InvalidInputError(`${field} must be at most ${SEND_LIMITS[field]} characters`)
    }
  }
  // why: the title is the e-mail subject, one header line; CR/LF there is refused, not folded
  if (/[\p{Cc}\u2028\u2029]/u.test((body.emailTitle as string).trim())) {
    throw new InvalidInputError(EMAIL_TITLE_NOT_ONE_LINE)
  }
  const productSlug = (body.productSlug as string).trim()
  const variant = checkVariant(productSlug, body.variant)
  const request: SendRequest = {
    productSlug,
    ...(variant === undefined ? {} : { variant }),
    emailTitle: (body.emailTitle as string).trim(),
    emailBody: body.emailBody as string,
  }
  if (body.sendAt === undefined || body.sendAt === null) return request
  const at = typeof body.sendAt === 'string' ? parseIsoTime(body.sendAt.trim()) : null
  if (at === null) throw new InvalidInputError(SEND_AT_INVALID)
  return { ...request, sendAt: at }
}

/**
 * An optional `variant` of an admin request: `null` and `""` are none; otherwise a string naming
 * one of the product's variants (400 with the product's variant ids when it does not). For a
 * product the catalogue does not have, the variant is taken as given (the request then finds
 * nobody, as for the product itself).
 */
export function checkVariant(productSlug: string, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value !== 'string') throw new InvalidInputError(VARIANT_TEXTS.notText)
  const product = findProduct(productSlug)
  if (!product) return value
  if (!product.variants) throw new InvalidInputError(VARIANT_TEXTS.noVariants)
  const known = product.variants.map((variant) => variant.id)
  if (!known.includes(value)) throw new InvalidInputError(VARIANT_TEXTS.unknown(value, known))
  return value
}
