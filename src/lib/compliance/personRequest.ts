import { z } from '../../generated/zod.js'

export const EMAIL_REQUIRED = 'email is required'
export const EMAIL_INVALID = 'email must be a valid e-mail address'
export const LINE_USER_ID_INVALID = 'lineUserId must be a LINE user id (U and 32 hex digits)'

/** A LINE user id as LINE writes it: `U` and 32 lower-case hex digits. */
const LINE_USER_ID = /^U[0-9a-f]{32}$/

/** Who a personal-data request is about: an e-mail address, or a LINE user (a LINE sign-up). */
export type PersonRef = { email: string } | { lineUserId: string }

/**
 * Body of POST /api/admin/people/export and /erase: `{"email"}`, or `{"lineUserId"}` for a
 * shopper who signed up with LINE (then `email` is not read).
 */
export const personRequestSchema = z
  .object({
    email: z.string({ error: EMAIL_REQUIRED }).optional(),
    lineUserId: z.string({ error: LINE_USER_ID_INVALID }).optional(),
  })
  .superRefine((value, context) => {
    if (value.lineUserId !== undefined) {
      if (!LINE_USER_ID.test(value.lineUserId.trim())) {
        context.addIssue({ code: 'custom', message: LINE_USER_ID_INVALID, path: ['lineUserId'] })
      }
      return
    }
    const email = value.email?.trim() ?? ''
    if (!email) context.addIssue({ code: 'custom', message: EMAIL_REQUIRED, path: ['email'] })
    else if (email.length > 254 || !z.regexes.email.test(email)) {
      context.addIssue({ code: 'custom', message: EMAIL_INVALID, path: ['email'] })
    }
  })
  .transform((value): PersonRef =>
    value.lineUserId !== undefined
      ? { lineUserId: value.lineUserId.trim() }
      : { email: (value.email ?? '').trim() },
  )
