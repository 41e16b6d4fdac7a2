import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import type { RequestContext } from '../requestContext.js'
import { AUDIT_KEYS as KEYS, AUDIT_STORE } from './blobLayout.js'
import { openStore } from './blobStore.js'

/** The kinds of change the audit trail records. */
export const AUDIT_ACTIONS = [
  'status',
  'notes',
  'archive',
  'unarchive',
  'delete',
  'send',
  'send-record-only',
  'schedule',
  'stock',
  'settings',
  'export',
  'erase',
  'lift',
  'synonym-add',
  'synonym-remove',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

/**
 * What an entry is about: a record (reservation, subscription, notification), a product (its
 * stock, its automatic notice), a personal-data request (its request id, never the address), a
 * suppression (the first 12 digits of its address hash) or a synonym group (its id).
 */
export const AUDIT_RECORD_TYPES = [
  'reservation',
  'subscription',
  'notification',
  'product',
  'person',
  'suppression',
  'synonym',
] as const
export type AuditRecordType = (typeof AUDIT_RECORD_TYPES)[number]

/**
 * One change: when, who (a STAFF_TOKENS name, or `admin` / `preorder`), what, to which record,
 * from which value to which, in which request. No personal data: statuses and ids only, never a
 * name, an e-mail or a note's text, so an entry may outlive its record (a delete keeps them).
 */
export interface AuditEntry {
  at: string
  actor: string
  action: AuditAction
  /** `productSlug` is null for what belongs to no product (a person, a suppression, a synonym). */
  record: { type: AuditRecordType; id: string; productSlug: string | null }
  from: string | null
  to: string | null
  requestId: string
}

export interface AuditPage {
  entries: AuditEntry[]
  total: number
}

export interface AuditRepository {
  /** Writes the entry under three new keys (all, its record, its actor); never over another. */
  append(entry: AuditEntry): Promise<void>
  /**
   * Newest first: the entries of `recordId` and/or `actor` (all when neither), `offset` and
   * `limit` applied after the filters, with the number that match.
   */
  list(
    filter: { recordId?: string; actor?: string },
    offset: number,
    limit: number,
  ): Promise<AuditPage>
}

// why: keys list in lexical order; a time counted down from the largest date lists newest first
const LATEST_MS = 8_640_000_000_000_000
const READ_CONCURRENCY = 10

/** `<ms counted down, 16 digits>-<random>`: unique, newest first. */
function entryName(at: string): string {
  const countdown = String(LATEST_MS - new Date(at).getTime()).padStart(16, '0')
  return `${countdown}-${crypto.randomUUID()}`
}

async function listKeys(store: Store, prefix: string): Promise<string[]> {
  const { blobs } = await store.list({ prefix })
  return blobs.map((blob) => blob.key).sort()
}

export function auditRepository(store: Store): AuditRepository {
  return {
    async append(entry) {
      const name = entryName(entry.at)
      const keys = [KEYS.all, KEYS.record(entry.record.id), KEYS.actor(entry.actor)]
      for (const prefix of keys) {
        const result = await store.setJSON(`${prefix}${name}`, entry, { onlyIfNew: true })
        if (!result.modified) throw new Error(`Audit entry ${prefix}${name} exists already`)
      }
    },
    async list({ recordId, actor }, offset, limit) {
      const prefix = recordId ? KEYS.record(recordId) : actor ? KEYS.actor(actor) : KEYS.all
      const keys = await listKeys(store, prefix)
      const read = (key: string) => store.get(key, { type: 'json' }) as Promise<AuditEntry | null>
      if (recordId && actor) {
        // why: one record has few entries; read them all and keep the actor's
        const all = (await mapWithConcurrency(keys, READ_CONCURRENCY, read)).filter(
          (entry): entry is AuditEntry => entry !== null && entry.actor === actor,
        )
        return { entries: all.slice(offset, offset + limit), total: all.length }
      }
      const page = keys.slice(offset, offset + limit)
      const entries = (await mapWithConcurrency(page, READ_CONCURRENCY, read)).filter(
        (entry): entry is AuditEntry => entry !== null,
      )
      return { entries, total: keys.length }
    },
  }
}

/** The audit trail of this deploy context's stores (strong consistency: a change reads back at once). */
export function openAuditRepository(context?: RequestContext): AuditRepository {
  return auditRepository(openStore(AUDIT_STORE, context))
}
