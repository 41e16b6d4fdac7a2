import { createHash } from 'node:crypto'
import type { Store } from '@netlify/blobs'
import { confirmationLimitKey } from './blobLayout.js'

/**
 * The hourly cap on confirmation e-mails (reservation and restock sign-up) to one address, so
 * that the public forms cannot be used to mail someone over and over with text of the sender's
 * choosing (README "Abuse protection"). One blob per address, `confirmation-limits/{hash}`,
 * holding `{hour, count}` for the current clock hour (UTC), changed only by compare-and-swap.
 * The key is a SHA-256 of the normalised address: no address is ever in a key or a log line.
 */

/** Confirmation e-mails one address may get per clock hour (UTC); the records are stored anyway. */
export const CONFIRMATIONS_PER_HOUR = 5

const ATTEMPTS = 10

/**
 * One address however it is typed: trimmed, NFKC, lower case, without a `+tag` (it reaches the
 * same inbox).
 */
function normaliseAddress(address: string): string {
  const normal = address.trim().normalize('NFKC').toLowerCase()
  const at = normal.lastIndexOf('@')
  if (at < 0) return normal
  return `${normal.slice(0, at).replace(/\+.*$/, '')}${normal.slice(at)}`
}

function limitKey(address: string): string {
  const digest = createHash('sha256')
    .update(`confirmation-limit\n${normaliseAddress(address)}`)
    .digest('hex')
  return confirmationLimitKey(digest)
}

interface Counter {
  hour: string
  count: number
}

function parseCounter(text: string): Counter | null {
  try {
    const value = JSON.parse(text) as Partial<Counter> | null
    if (typeof value?.hour === 'string' && Number.isInteger(value.count)) {
      return { hour: value.hour, count: value.count! }
    }
  } catch {
    // a damaged counter counts as none
  }
  return null
}

/**
 * Counts one confirmation e-mail to `address` in the hour of `now`: true when it may be sent
 * (and is counted), false when the address has had `perHour` this hour, or when the counter kept
 * changing under us (then nothing is sent: a relay is worse than a missing confirmation).
 */
async function takeConfirmationSlot(
  store: Store,
  address: string,
  now: Date,
  perHour = CONFIRMATIONS_PER_HOUR,
): Promise<boolean> {
  const key = limitKey(address)
  const hour = now.toISOString().slice(0, 13)
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const found = await store.getWithMetadata(key, { type: 'text' })
    const counter = found ? parseCounter(found.data) : null
    const count = counter?.hour === hour ? counter.count : 0
    if (count >= perHour) return false
    const next: Counter = { hour, count: count + 1 }
    const condition = found?.etag ? { onlyIfMatch: found.etag } : { onlyIfNew: true as const }
    const { modified } = await store.setJSON(key, next, condition)
    if (modified) return true
    // why: contenders that collided retry at different moments instead of colliding again
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt))
  }
  return false
}

/** The hourly confirmation counters of the records store. */
export interface ConfirmationLimits {
  /** `takeConfirmationSlot` on this store. */
  take(address: string, now: Date, perHour?: number): Promise<boolean>
}

export function confirmationLimits(store: Store): ConfirmationLimits {
  return { take: (address, now, perHour) => takeConfirmationSlot(store, address, now, perHour) }
}
