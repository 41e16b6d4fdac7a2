import { z } from '../../generated/zod.js'

export const EMAIL_REQUIRED = 'email is required'
export const EMAIL_INVALID = 'email must be a valid e-mail address'

/** Body of POST /api/admin/people/export and /erase. */
export const personRequestSchema = z.object({
  email: z
    .string({ error: EMAIL_REQUIRED })
    .trim()
    .min(1, { error: EMAIL_REQUIRED })
    .max(254, { error: EMAIL_INVALID })
    .regex(z.regexes.email, { error: EMAIL_INVALID }),
})
