import { createHash } from 'node:crypto'
import { emailHash } from '../storage/emailHash.js'
import { lineUserHash } from '../storage/lineContacts.js'
import { newConsentId } from '../storage/blobLayout.js'
import {
  type ConsentKind,
  type ConsentRecord,
  type ConsentRepository,
  type ConsentSource,
} from '../storage/consentRepository.js'
import { clientNetwork } from './clientNetwork.js'
import { CONSENT_WORDING } from './consentWording.js'

/** The version of a wording: the first 16 hex digits of its SHA-256 (same text, same version). */
export function wordingVersion(kind: ConsentKind, text: string): string {
  return `${kind}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`
}

/** The current wording of `kind` and its version. */
export function currentWording(kind: ConsentKind): { version: string; text: string } {
  const text = CONSENT_WORDING[kind]
  return { version: wordingVersion(kind, text), text }
}

export interface ConsentInput {
  /** The address consenting; empty when `lineUserId` names the person instead. */
  email: string
  /** The LINE user consenting (a LINE sign-up): the record is filed under its `lineUserHash`. */
  lineUserId?: string
  kind: ConsentKind
  recordId: string
  productSlug: string
  source: ConsentSource
  /** The client's IP address as the platform saw it (`context.ip`), if known. */
  clientIp?: string | null
  at: Date
}

/**
 * Stores the consent given with a sign-up or reservation: its wording version (stored once) and a
 * record naming it, the record, the product, the source and the reduced client network.
 */
export async function recordConsent(
  consents: ConsentRepository,
  input: ConsentInput,
): Promise<ConsentRecord> {
  const wording = currentWording(input.kind)
  await consents.storeWording({
    version: wording.version,
    kind: input.kind,
    text: wording.text,
    storedAt: input.at.toISOString(),
  })
  const record: ConsentRecord = {
    id: newConsentId(input.at),
    emailHash: input.lineUserId ? lineUserHash(input.lineUserId) : emailHash(input.email),
    kind: input.kind,
    recordId: input.recordId,
    productSlug: input.productSlug,
    source: input.source,
    wordingVersion: wording.version,
    clientNetwork: clientNetwork(input.clientIp),
    createdAt: input.at.toISOString(),
  }
  await consents.create(record, record)
  return record
}
