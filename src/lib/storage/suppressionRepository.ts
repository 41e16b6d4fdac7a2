import type { Store } from '@netlify/blobs'
import { SUPPRESSIONS_PREFIX } from './blobLayout.js'
import { emailHash, normaliseEmail } from './emailHash.js'
import { singlePartition } from './listing/partitioning.js'
import { RecordCollection, type RecordCollectionOptions } from './recordCollection.js'

/**
 * Addresses no restock or confirmation e-mail may go to again (a hard bounce or a complaint
 * reported by Resend, docs/compliance.md): `suppressions/{emailHash}`. The address is kept
 * beside the hash so that staff can see whom the list holds; an erased person's entry keeps the
 * hash only (`email: null`), so the address stays suppressed without being stored.
 */

export const SUPPRESSION_REASONS = ['bounce', 'complaint'] as const
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number]

export interface Suppression {
  emailHash: string
  /** The address, or null once its person was erased. */
  email: string | null
  reason: SuppressionReason
  /** When the provider's event happened (ISO). */
  suppressedAt: string
}

const PREFIX = SUPPRESSIONS_PREFIX
const HASH = /^[0-9a-f]{64}$/

function isSuppression(value: unknown): value is Suppression {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  return typeof record.emailHash === 'string' && typeof record.suppressedAt === 'string'
}

export class SuppressionRepository extends RecordCollection<Suppression, { emailHash: string }> {
  constructor(store: Store, options?: RecordCollectionOptions) {
    super(
      store,
      {
        name: PREFIX,
        prefix: `${PREFIX}/`,
        keyOf: ({ emailHash: hash }) => (HASH.test(hash) ? `${PREFIX}/${hash}` : null),
        isRecord: isSuppression,
        partitioning: singlePartition(`${PREFIX}/`),
      },
      options,
    )
  }

  /** The entry of an address, or null when it is not suppressed. */
  forAddress(email: string): Promise<Suppression | null> {
    return this.get({ emailHash: emailHash(email) })
  }

  /** Suppresses an address; an address already on the list keeps its first entry. */
  async suppress(email: string, reason: SuppressionReason, at: string): Promise<Suppression> {
    const entry: Suppression = {
      emailHash: emailHash(email),
      email: normaliseEmail(email),
      reason,
      suppressedAt: at,
    }
    if (await this.create(entry, entry)) return entry
    return (await this.get(entry)) ?? entry
  }
}

export function suppressionRepository(store: Store, options?: RecordCollectionOptions) {
  return new SuppressionRepository(store, options)
}
