import { z } from '../../generated/zod.js'
import { NotFoundError } from '../errors.js'
import type { AuditRecorder } from '../audit/auditTrail.js'
import type { Logger } from '../log.js'
import type { Suppression, SuppressionRepository } from '../storage/suppressionRepository.js'

/** Body of POST /api/admin/suppressions/lift. */
export const liftSuppressionSchema = z.object({
  emailHash: z
    .string({ error: 'emailHash is required' })
    .regex(/^[0-9a-f]{64}$/, { error: 'emailHash must be 64 hexadecimal digits' }),
})

/** Every suppressed address, most recent first (POST /api/admin/suppressions/list). */
export async function listSuppressions(
  suppressions: SuppressionRepository,
): Promise<Suppression[]> {
  const { records } = await suppressions.list()
  return records.sort((a, b) => b.suppressedAt.localeCompare(a.suppressedAt))
}

/** The answer when the suppression does not exist (lifted already, or never there). */
export const SUPPRESSION_NOT_FOUND = 'Suppression not found'

/**
 * Lifts one suppression (POST /api/admin/suppressions/lift): staff decided the address may be
 * e-mailed again (e.g. the shopper fixed a full mailbox). Subscriptions it ended stay ended; the
 * shopper signs up again.
 */
export async function liftSuppression(
  suppressions: SuppressionRepository,
  emailHash: string,
  log: Logger,
  audit?: AuditRecorder,
): Promise<void> {
  if (!(await suppressions.remove({ emailHash }))) throw new NotFoundError(SUPPRESSION_NOT_FOUND)
  // why: the hash's first digits name the entry, as in the log; the whole hash would let anyone
  // holding the address confirm it long after an erasure
  const shortHash = emailHash.slice(0, 12)
  log.info('suppression.lifted', { emailHash: shortHash })
  await audit?.record([
    {
      action: 'lift',
      record: { type: 'suppression', id: shortHash, productSlug: null },
      from: null,
      to: null,
    },
  ])
}
