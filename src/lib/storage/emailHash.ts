import { createHash } from 'node:crypto'

/**
 * The one form of an e-mail address that keys personal data: trimmed, NFC, lower-cased (the
 * forms store addresses lower-cased already, D2/§4.10; a provider's webhook may not).
 */
export function normaliseEmail(email: string): string {
  return email.normalize('NFC').trim().toLowerCase()
}

/**
 * SHA-256 (hex) of the normalised address: names an address in blob keys (claims, consents,
 * suppressions) without the address itself appearing in any key listing.
 */
export function emailHash(email: string): string {
  return createHash('sha256').update(normaliseEmail(email)).digest('hex')
}
