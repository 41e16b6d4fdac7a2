import { parseIsoTime } from '../clock.js'
import { InvalidInputError } from '../errors.js'

/** A checked §4.8 request. */
export interface SendRequest {
  productSlug: string
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

export const SEND_AT_INVALID =
  'sendAt must be an ISO 8601 time with its offset, e.g. 2026-11-24T08:00:00+09:00'

/**
 * §4.8 checks in the documented order: every "is required" first, then the D6 lengths, then a
 * title that is not one line (CR, LF, U+2028/U+2029 or another control character inside); then
 * `sendAt`, when given (null or absent: now), an ISO 8601 time with its offset. Whether it lies
 * ahead is the scheduling's check (restock/scheduledSend.ts), on the request's clock.
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
  const request: SendRequest = {
    productSlug: (body.productSlug as string).trim(),
    emailTitle: (body.emailTitle as string).trim(),
    emailBody: body.emailBody as string,
  }
  if (body.sendAt === undefined || body.sendAt === null) return request
  const at = typeof body.sendAt === 'string' ? parseIsoTime(body.sendAt.trim()) : null
  if (at === null) throw new InvalidInputError(SEND_AT_INVALID)
  return { ...request, sendAt: at }
}
