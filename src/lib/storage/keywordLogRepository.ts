import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { KEYWORD_LOGS_STORE, openStore } from './blobStore.js'
import type { RequestContext } from '../requestContext.js'

/** One search as logged (§2.6). */
export interface KeywordLogEntry {
  keyword: string
  timestamp: string
  resultCount: number
}

/** Searches counted per normalized query: `[query, all, zero-result]` rows. */
export type QueryCountRows = [string, number, number][]

/**
 * The counts of one closed period: an hour `YYYY-MM-DDTHH` with the entry keys it counted, or a
 * day `YYYY-MM-DD` with the hours whose rollups it summed (an hour without entries has none), so
 * that an entry landing afterwards can tell it was left out.
 */
export interface KeywordRollup {
  period: string
  queries: QueryCountRows
  keys?: string[]
  hours?: string[]
}

export type RollupKind = 'hour' | 'day'

export interface KeywordLogRepository {
  /**
   * Stores one search under its own key. When the write lands after the entry's hour has ended
   * and the hour or its day is already rolled up without it, the entry is also written as a
   * late marker.
   */
  append(entry: KeywordLogEntry): Promise<void>
  /** Every entry key starting with `prefix` (`YYYY-MM-DD/` for a day, `YYYY-MM-DD/YYYY-MM-DDTHH` for an hour). */
  listKeys(prefix: string): Promise<string[]>
  /**
   * The UTC days (`YYYY-MM-DD`) that have entries, or a rollup: one listing of the store's top
   * level, so that a summary spends nothing on days without searches.
   */
  listDays(): Promise<Set<string>>
  /** An entry, or null when it is missing or not an entry. */
  read(key: string): Promise<KeywordLogEntry | null>
  /** Periods of the stored rollups of `kind` that start with `prefix` (e.g. a day's hours). */
  listRollups(kind: RollupKind, prefix: string): Promise<string[]>
  /** The rollup of a period, or null when there is none (or it is not readable). */
  readRollup(kind: RollupKind, period: string): Promise<KeywordRollup | null>
  /** Writes the rollup unless one exists; answers the one that is stored afterwards. */
  createRollup(kind: RollupKind, rollup: KeywordRollup): Promise<KeywordRollup>
  /** Records an entry its hour's rollup left out (idempotent: keyed by the entry key). */
  markLate(key: string, entry: KeywordLogEntry): Promise<void>
  /** Every late entry, keyed by its entry key. */
  lateEntries(): Promise<Map<string, KeywordLogEntry>>
}

/** Rollup keys carry a version: a change of the counting (normalization) starts afresh. */
const ROLLUP_PREFIX = 'rollups/v1'
const LATE_PREFIX = 'late/'
const HOUR_MS = 60 * 60 * 1000

/** Longest entry key that carries its search (Netlify Blobs keys stay well under 600 bytes). */
const MAX_KEY_LENGTH = 480

/**
 * `<YYYY-MM-DD>/<YYYY-MM-DDTHH>/<timestamp>-<random>~<r|z><keyword, URI-encoded>`: one blob per
 * search (no shared blob to race on), a day's or an hour's searches are listed with a prefix
 * (older keys, `<YYYY-MM-DD>/<timestamp>-<random>`, match the same prefixes), and the key carries
 * the search itself (`z` = zero results) so that a rollup counts from the listing alone, without
 * reading each entry (docs/search.md). A keyword too long for a key leaves the tail out; such an
 * entry (and every entry written before keys carried searches) is read instead.
 */
export function keywordLogKey(entry: KeywordLogEntry): string {
  const { timestamp } = entry
  const base = `${timestamp.slice(0, 10)}/${timestamp.slice(0, 13)}/${timestamp}-${crypto.randomUUID().slice(0, 8)}`
  const tail = `~${entry.resultCount === 0 ? 'z' : 'r'}${encodeURIComponent(entry.keyword)}`
  return base.length + tail.length <= MAX_KEY_LENGTH ? base + tail : base
}

/** The hour `YYYY-MM-DDTHH` an entry key belongs to, or null for a key of another shape. */
export function hourOfKey(key: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})\/(\1T\d{2})/.exec(key)
  return match ? match[2] : null
}

/** The search an entry key carries (`resultCount` only says zero or not), or null when it has none. */
export function searchOfKey(key: string): KeywordLogEntry | null {
  const match = /^\d{4}-\d{2}-\d{2}\/(?:[^/]+\/)?([^/]+?)-[0-9a-f]{8}~([rz])(.*)$/.exec(key)
  if (!match) return null
  try {
    const keyword = decodeURIComponent(match[3])
    return { keyword, timestamp: match[1], resultCount: match[2] === 'z' ? 0 : 1 }
  } catch {
    return null
  }
}

/** Options of keywordLogRepository. */
export interface KeywordLogRepositoryOptions {
  /** Clock that decides whether a write landed after its hour. Default: `Date.now`. */
  now?: () => number
}

export function keywordLogRepository(
  store: Store,
  options: KeywordLogRepositoryOptions = {},
): KeywordLogRepository {
  const now = options.now ?? Date.now
  const rollupKey = (kind: RollupKind, period: string) => `${ROLLUP_PREFIX}/${kind}/${period}`

  const repository: KeywordLogRepository = {
    async append(entry) {
      const key = keywordLogKey(entry)
      await store.setJSON(key, entry)
      const hour = hourOfKey(key)
      // why: only a write that landed after its hour ended can have missed the hour's rollup;
      // checking after the write closes the race with a roller (which lists again after writing)
      if (!hour || now() < Date.parse(`${hour}:00:00Z`) + HOUR_MS) return
      const [hourRollup, dayRollup] = await Promise.all([
        repository.readRollup('hour', hour),
        repository.readRollup('day', hour.slice(0, 10)),
      ])
      if (!hourRollup && !dayRollup) return
      const inHour = hourRollup?.keys?.includes(key) ?? false
      const inDay = !dayRollup || (dayRollup.hours?.includes(hour) ?? false)
      if (!inHour || !inDay) await repository.markLate(key, entry)
    },
    async listDays() {
      const [{ directories }, rolled] = await Promise.all([
        store.list({ directories: true }),
        repository.listRollups('day', ''),
      ])
      const days = directories
        .map((directory) => directory.replace(/\/$/, ''))
        .filter((directory) => /^\d{4}-\d{2}-\d{2}$/.test(directory))
      return new Set([...days, ...rolled])
    },
    async listKeys(prefix) {
      const { blobs } = await store.list({ prefix })
      return blobs.map((blob) => blob.key)
    },
    async read(key) {
      return parseJson(await store.get(key, { type: 'text' }), isKeywordLogEntry)
    },
    async listRollups(kind, prefix) {
      const start = rollupKey(kind, '')
      const { blobs } = await store.list({ prefix: `${start}${prefix}` })
      return blobs.map((blob) => blob.key.slice(start.length))
    },
    async readRollup(kind, period) {
      const text = await store.get(rollupKey(kind, period), { type: 'text' })
      return parseJson(text, isKeywordRollup)
    },
    async createRollup(kind, rollup) {
      const { modified } = await store.setJSON(rollupKey(kind, rollup.period), rollup, {
        onlyIfNew: true,
      })
      if (modified) return rollup
      return (await repository.readRollup(kind, rollup.period)) ?? rollup
    },
    async markLate(key, entry) {
      await store.setJSON(`${LATE_PREFIX}${key}`, entry)
    },
    async lateEntries() {
      const { blobs } = await store.list({ prefix: LATE_PREFIX })
      const texts = await mapWithConcurrency(blobs, 20, ({ key }) =>
        store.get(key, { type: 'text' }),
      )
      const late = new Map<string, KeywordLogEntry>()
      blobs.forEach(({ key }, index) => {
        const entry = parseJson(texts[index], isKeywordLogEntry)
        if (entry) late.set(key.slice(LATE_PREFIX.length), entry)
      })
      return late
    },
  }
  return repository
}

/** The repository on the `keyword-logs` store of this deploy context (D12). */
export function openKeywordLogRepository(context?: RequestContext): KeywordLogRepository {
  return keywordLogRepository(openStore(KEYWORD_LOGS_STORE, context))
}

function parseJson<T>(text: string | null, isValid: (value: unknown) => value is T): T | null {
  if (text === null) return null
  try {
    const value: unknown = JSON.parse(text)
    return isValid(value) ? value : null
  } catch {
    return null
  }
}

function isKeywordLogEntry(value: unknown): value is KeywordLogEntry {
  if (typeof value !== 'object' || value === null) return false
  const entry = value as Record<string, unknown>
  return (
    typeof entry.keyword === 'string' &&
    typeof entry.timestamp === 'string' &&
    typeof entry.resultCount === 'number'
  )
}

function isKeywordRollup(value: unknown): value is KeywordRollup {
  if (typeof value !== 'object' || value === null) return false
  const rollup = value as Record<string, unknown>
  return (
    typeof rollup.period === 'string' &&
    Array.isArray(rollup.queries) &&
    (rollup.keys === undefined || Array.isArray(rollup.keys)) &&
    (rollup.hours === undefined || Array.isArray(rollup.hours))
  )
}

/**
 * The repository as one answer reads it: the listing of days and each rollup and listing of
 * rollups is read once however many summaries of one request ask (the overview counts the
 * period, the period before and its days from the same rollups). Entries are listed afresh each
 * time (a roller lists again after writing); writes go through, and a rollup or late marker
 * written makes the next read of rollups or late entries ask the store again.
 */
export function readOnce(repository: KeywordLogRepository): KeywordLogRepository {
  const memo = new Map<string, Promise<unknown>>()
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let found = memo.get(key) as Promise<T> | undefined
    if (!found) memo.set(key, (found = read()))
    return found
  }
  const forget = (start: string) => {
    for (const key of [...memo.keys()]) if (key.startsWith(start)) memo.delete(key)
  }
  return {
    ...repository,
    listDays: () => once('days', () => repository.listDays()),
    listRollups: (kind, prefix) =>
      once(`rollups ${kind} ${prefix}`, () => repository.listRollups(kind, prefix)),
    readRollup: (kind, period) =>
      once(`rollup ${kind} ${period}`, () => repository.readRollup(kind, period)),
    async createRollup(kind, rollup) {
      const stored = await repository.createRollup(kind, rollup)
      forget('rollups ')
      memo.set(`rollup ${kind} ${rollup.period}`, Promise.resolve(stored))
      return stored
    },
    async markLate(key, entry) {
      await repository.markLate(key, entry)
      forget('late')
    },
    lateEntries: () => once('late', () => repository.lateEntries()),
  }
}
