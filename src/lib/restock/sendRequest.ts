import { InvalidInputError } from '../errors.js'

/** A checked §4.8 request. */
export interface SendRequest {
  productSlug: string
  emailTitle: string
  emailBody: string
}

/** D6 limits, in characters. */
export const SEND_LIMITS = { productSlug: 100, emailTitle: 200, emailBody: 20000 } as const

const FIELDS = ['productSlug', 'emailTitle', 'emailBody'] as const

export const EMAIL_TITLE_NOT_ONE_LINE =
  'emailTitle must be a single line (no line breaks or control characters)'

/**
 * §4.8 checks in the documented order: every "is required" first, then the D6 lengths, then a
 * title that is not one line (CR, LF, U+2028/U+2029 or another control character inside).
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
  return {
    productSlug: (body.productSlug as string).trim(),
    emailTitle: (body.emailTitle as string).trim(),
    emailBody: body.emailBody as string,
  }
}
