import { z } from '../../generated/zod.js'
import type { Actor } from '../audit/auditTrail.js'
import type { RequestContext } from '../requestContext.js'
import type { AppConfig } from '../config.js'
import { openServices } from '../services.js'
import type { Logger } from '../log.js'
import type { PersonalDataDeps } from './personalData.js'

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

/**
 * What the personal-data services need for one request, from the one wiring. Background work of
 * the repositories (index folds, which copy records) is collected and awaited by `settle`, so
 * that an erase folds the indexes after the last of them was written.
 */
export function openPersonalData(
  context: RequestContext,
  config: AppConfig,
  log: Logger,
  actor: Actor | null,
): PersonalDataDeps {
  const pending: Promise<unknown>[] = []
  const collecting: RequestContext = { ...context, waitUntil: (work) => void pending.push(work) }
  const services = openServices(collecting, config, log, { actor })
  return {
    repositories: services.repositories,
    audit: services.audit,
    log,
    settle: async () => {
      let seen = -1
      while (seen !== pending.length) {
        seen = pending.length
        await Promise.allSettled(pending)
      }
    },
  }
}
