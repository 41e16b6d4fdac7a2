import type { Store } from '@netlify/blobs'
import { KEYWORD_LOGS_STORE, openStore } from './blobStore.js'
import type { RequestContext } from '../requestContext.js'

/** One search as logged (§2.6). */
export interface KeywordLogEntry {
  keyword: string
  timestamp: string
  resultCount: number
}

export interface KeywordLogRepository {
  append(entry: KeywordLogEntry): Promise<void>
  /** Keys of the entries logged on a UTC day (`YYYY-MM-DD`). */
  listKeysOfDay(day: string): Promise<string[]>
  /** An entry, or null when it is missing or not an entry. */
  read(key: string): Promise<KeywordLogEntry | null>
}

/**
 * `<YYYY-MM-DD>/<timestamp>-<random>`: one blob per search (no shared blob to race on), and a
 * day's searches are listed with the day as prefix.
 */
export function keywordLogKey(timestamp: string): string {
  return `${timestamp.slice(0, 10)}/${timestamp}-${crypto.randomUUID().slice(0, 8)}`
}

export function keywordLogRepository(store: Store): KeywordLogRepository {
  return {
    async append(entry) {
      await store.setJSON(keywordLogKey(entry.timestamp), entry)
    },
    async listKeysOfDay(day) {
      const { blobs } = await store.list({ prefix: `${day}/` })
      return blobs.map((blob) => blob.key)
    },
    async read(key) {
      const text = await store.get(key, { type: 'text' })
      if (text === null) return null
      return parseEntry(text)
    },
  }
}

/** The repository on the `keyword-logs` store of this deploy context (D12). */
export function openKeywordLogRepository(context?: RequestContext): KeywordLogRepository {
  return keywordLogRepository(openStore(KEYWORD_LOGS_STORE, context))
}

function parseEntry(text: string): KeywordLogEntry | null {
  try {
    const value: unknown = JSON.parse(text)
    return isKeywordLogEntry(value) ? value : null
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
