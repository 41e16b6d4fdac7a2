import type { Store } from '@netlify/blobs'
import { hexPartitions } from './listing/partitioning.js'
import { RecordCollection, type RecordCollectionOptions, type Listing } from './recordCollection.js'
import { consentWordingKey, CONSENTS_PREFIX } from './blobLayout.js'
import { isUsableRecordId } from './recordIds.js'

/**
 * Consent records (特定電子メール法 Art. 3, docs/compliance.md): one per sign-up and reservation,
 * under `consents/{emailHash}/{id}`, so everything one address consented to is one key prefix.
 * A record holds no address: it names its wording by version; the wording itself is stored once
 * per version under `consent-wordings/{version}`.
 */

/** What the shopper consented to. */
export const CONSENT_KINDS = ['restock-notice', 'reservation', 'restock-line'] as const
export type ConsentKind = (typeof CONSENT_KINDS)[number]

/** Where the consent was given: a storefront widget, another HTML form, or a direct API call. */
export const CONSENT_SOURCES = ['widget', 'form', 'api'] as const
export type ConsentSource = (typeof CONSENT_SOURCES)[number]

export interface ConsentRecord {
  /** `cns_<ms>-<random>`. */
  id: string
  /**
   * `emailHash` of the address (the key's folder); for a LINE sign-up (`restock-line`),
   * `lineUserHash` of the LINE user id (storage/lineContacts.ts).
   */
  emailHash: string
  kind: ConsentKind
  /** The subscription (`ntf_…`) or reservation (`res_…`) it was given for. */
  recordId: string
  productSlug: string
  source: ConsentSource
  /** Version of the wording shown (`consent-wordings/{version}`). */
  wordingVersion: string
  /** The client's network, reduced (`203.0.113.0/24`, `2001:db8:1::/48`), or null when unknown. */
  clientNetwork: string | null
  /** When the consent was given (ISO). */
  createdAt: string
}

/** One version of a consent wording, stored once. */
export interface ConsentWording {
  version: string
  kind: ConsentKind
  text: string
  /** When this version was first stored (ISO). */
  storedAt: string
}

export interface ConsentRef {
  emailHash: string
  id: string
}

const PREFIX = CONSENTS_PREFIX
const HASH = /^[0-9a-f]{64}$/

function isConsentRecord(value: unknown): value is ConsentRecord {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  return ['id', 'emailHash', 'recordId', 'productSlug', 'wordingVersion', 'createdAt'].every(
    (field) => typeof record[field] === 'string',
  )
}

export class ConsentRepository extends RecordCollection<ConsentRecord, ConsentRef> {
  readonly #store: Store

  constructor(store: Store, options?: RecordCollectionOptions) {
    super(
      store,
      {
        name: PREFIX,
        prefix: `${PREFIX}/`,
        keyOf: ({ emailHash, id }) =>
          HASH.test(emailHash) && isUsableRecordId(id) ? `${PREFIX}/${emailHash}/${id}` : null,
        isRecord: isConsentRecord,
        partitioning: hexPartitions(`${PREFIX}/`),
      },
      options,
    )
    this.#store = store
  }

  /** Every consent one address (`emailHash` of it) or LINE user (`lineUserHash`) gave. */
  listForAddress(hash: string): Promise<Listing<ConsentRecord>> {
    if (!HASH.test(hash)) return Promise.resolve({ records: [], unreadableKeys: [] })
    return this.listUnder(`${PREFIX}/${hash}/`)
  }

  /** Stores a wording version unless it is stored already (the first storedAt stays). */
  async storeWording(wording: ConsentWording): Promise<void> {
    await this.#store.setJSON(consentWordingKey(wording.version), wording, { onlyIfNew: true })
  }

  /** A stored wording version, or null. */
  async wording(version: string): Promise<ConsentWording | null> {
    if (!isUsableRecordId(version)) return null
    return (await this.#store.get(consentWordingKey(version), {
      type: 'json',
    })) as ConsentWording | null
  }
}

export function consentRepository(store: Store, options?: RecordCollectionOptions) {
  return new ConsentRepository(store, options)
}
