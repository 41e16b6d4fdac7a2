import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { EXPORTS_PREFIX, exportKeys, EXPORT_TICKETS_PREFIX } from './blobLayout.js'

/** Which list an export holds (the list endpoints' names). */
export type ExportList = 'reservations' | 'notify' | 'reservations-archive' | 'notify-archive'

/** What an export is filtered by, as the list endpoints take it. */
export interface ExportFilters {
  status?: string
  productSlug?: string
  /** Only records of this variant (its id) of the product. */
  variant?: string
  q?: string
}

/** One CSV export of a list: queued → running → done (or failed). */
export interface ExportJob {
  id: string
  list: ExportList
  filters: ExportFilters
  state: 'queued' | 'running' | 'done' | 'failed'
  createdAt: string
  updatedAt: string
  /** Who asked for it (the audit actor), or null. */
  requestedBy: string | null
  /** The file's name for staff, e.g. `予約-20261124-1030.csv`. */
  fileName: string
  /** Rows the file will hold (known once the run has read the list). */
  totalRows: number | null
  /** Rows written so far. */
  writtenRows: number
  /** Parts written so far (each `list-exports/{id}/parts/{n}`, 1-based). */
  parts: number
  /** Bytes written so far. */
  bytes: number
  /** Why it failed, for staff; set with `failed`. */
  error?: string
}

/** Export jobs and their CSV parts in the records store; every change of a job by CAS. */
export class ExportJobStore {
  readonly #store: Store

  constructor(store: Store) {
    this.#store = store
  }

  /** Stores a new job; false when one with its id exists. */
  async create(job: ExportJob): Promise<boolean> {
    return (await this.#store.setJSON(exportKeys.job(job.id), job, { onlyIfNew: true })).modified
  }

  /** The job, or null when there is none (or its blob is not readable). */
  async get(exportId: string): Promise<ExportJob | null> {
    const found = await this.#store.get(exportKeys.job(exportId), {
      type: 'json',
      consistency: 'strong',
    })
    return found && typeof found === 'object' ? (found as ExportJob) : null
  }

  /**
   * Applies `change` by compare-and-swap, again on a conflict; the stored job after it, or null
   * when there is no job.
   */
  async update(exportId: string, change: (job: ExportJob) => ExportJob): Promise<ExportJob | null> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const found = await this.#store.getWithMetadata(exportKeys.job(exportId), {
        type: 'json',
        consistency: 'strong',
      })
      if (!found?.etag) return null
      const next = change(found.data as ExportJob)
      const written = await this.#store.setJSON(exportKeys.job(exportId), next, {
        onlyIfMatch: found.etag,
      })
      if (written.modified) return next
    }
    throw new Error(`export job ${exportId} kept changing under its update`)
  }

  /**
   * Writes part `part` (1-based) of the CSV, as text or its UTF-8 bytes; a run repeated after
   * a death rewrites it.
   */
  async writePart(exportId: string, part: number, data: string | ArrayBuffer): Promise<void> {
    await this.#store.set(exportKeys.part(exportId, part), data)
  }

  /** Part `part` of the CSV, or null. */
  readPart(exportId: string, part: number): Promise<string | null> {
    return this.#store.get(exportKeys.part(exportId, part), {
      type: 'text',
      consistency: 'strong',
    })
  }

  /**
   * Deletes every export made before `cutoff` (ms), job and parts, and the spent tickets that
   * expired before `now` (an expired ticket is refused anyway); the number of exports deleted.
   * An export whose job is unreadable goes too (its parts are of no use).
   */
  async dropOlderThan(cutoff: number, now: number): Promise<number> {
    const keysOf = new Map<string, string[]>()
    for await (const page of this.#store.list({ prefix: EXPORTS_PREFIX, paginate: true })) {
      for (const { key } of page.blobs) {
        const id = key.slice(EXPORTS_PREFIX.length).split('/')[0]!
        keysOf.set(id, [...(keysOf.get(id) ?? []), key])
      }
    }
    let dropped = 0
    await mapWithConcurrency([...keysOf], 10, async ([id, keys]) => {
      const job = await this.get(id)
      if (job && !(Date.parse(job.createdAt) < cutoff)) return
      for (const key of keys) await this.#store.delete(key)
      dropped += 1
    })
    const spent: string[] = []
    for await (const page of this.#store.list({ prefix: EXPORT_TICKETS_PREFIX, paginate: true })) {
      spent.push(...page.blobs.map(({ key }) => key))
    }
    await mapWithConcurrency(spent, 10, async (key) => {
      const ticket = (await this.#store.get(key, { type: 'json' })) as { expiresAt?: string } | null
      if (!ticket || Date.parse(ticket.expiresAt ?? '') < now) await this.#store.delete(key)
    })
    return dropped
  }

  /** Records a ticket as spent; false when it already was (a replay). */
  async spendTicket(nonce: string, expiresAt: number, now: number): Promise<boolean> {
    const spent = {
      spentAt: new Date(now).toISOString(),
      expiresAt: new Date(expiresAt).toISOString(),
    }
    const key = exportKeys.spentTicket(nonce)
    return (await this.#store.setJSON(key, spent, { onlyIfNew: true })).modified
  }
}
