import type { Store } from '@netlify/blobs'
import { describe, expect, it } from 'vitest'
import { config, keywordRollup } from '../../netlify/functions/search-keywords-rollup.js'
import { mapWithConcurrency } from '../../src/lib/concurrency.js'
import { hourRollups, rollUpClosedPeriods } from '../../src/lib/search/analytics/keywordRollups.js'
import { summarizeSearchKeywords } from '../../src/lib/search/analytics/searchAnalytics.js'
import { normalizeQuery } from '../../src/lib/search/textNormalization.js'
import { KEYWORD_LOGS_STORE, openStore } from '../../src/lib/storage/blobStore.js'
import {
  keywordLogRepository,
  type KeywordLogEntry,
  type KeywordLogRepository,
} from '../../src/lib/storage/keywordLogRepository.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { fakeContext } from '../helpers/context.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** 12:34 UTC: hours up to 11:00 are closed (10 minutes after their end), 12:00 is open. */
const NOW = Date.UTC(2026, 10, 23, 12, 34, 0)
const TODAY = Date.UTC(2026, 10, 23)
const KEYWORDS = [
  'Tokoname',
  'ｔｏｋｏｎａｍｅ',
  '急須',
  'zzz',
  'ほうじ茶ラテ',
  'constructor',
  '__proto__',
  '  ',
]

const blobs = useBlobsServer()
useLogCapture()
let stores = 0

/** A keyword-logs store of its own, and a repository whose writer clock is `now`. */
function freshStore() {
  const context = fakeContext({ deployContext: `keywords-${process.pid}-${++stores}` })
  const store = openStore(KEYWORD_LOGS_STORE, context)
  return { store, context, at: (now: number) => keywordLogRepository(store, { now: () => now }) }
}

function entry(i: number, timestamp: number): KeywordLogEntry {
  return {
    keyword: KEYWORDS[i % KEYWORDS.length],
    timestamp: new Date(timestamp).toISOString(),
    resultCount: i % 3 === 0 ? 0 : i % 5,
  }
}

/** Writes each entry as a search does, the write landing right after its own timestamp. */
async function seed(store: Store, entries: KeywordLogEntry[]) {
  await mapWithConcurrency(entries, 20, (e) =>
    keywordLogRepository(store, { now: () => Date.parse(e.timestamp) + 50 }).append(e),
  )
}

/** The summary counted the way it was before rollups: every entry of every day read. */
async function rawSummary(store: Store, days: number) {
  const all = new Map<string, number>()
  const zero = new Map<string, number>()
  let totalSearches = 0
  for (let i = 0; i < days; i++) {
    const day = new Date(TODAY - i * DAY).toISOString().slice(0, 10)
    const { blobs: listed } = await store.list({ prefix: `${day}/` })
    const texts = await mapWithConcurrency(listed, 20, ({ key }) =>
      store.get(key, { type: 'text' }),
    )
    for (const text of texts) {
      let value: KeywordLogEntry | null = null
      try {
        value = JSON.parse(text ?? 'null')
      } catch {
        value = null
      }
      const query = value && typeof value.keyword === 'string' && normalizeQuery(value.keyword)
      if (!query) continue
      totalSearches++
      all.set(query, (all.get(query) ?? 0) + 1)
      if (value!.resultCount === 0) zero.set(query, (zero.get(query) ?? 0) + 1)
    }
  }
  const top = (counts: Map<string, number>) =>
    [...counts]
      .map(([query, count]) => ({ query, count }))
      .sort((a, b) => b.count - a.count || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0))
  return { totalSearches, topQueries: top(all), zeroResultQueries: top(zero) }
}

async function summary(repository: KeywordLogRepository, days: number) {
  const { totalSearches, topQueries, zeroResultQueries } = await summarizeSearchKeywords(
    repository,
    { days, limit: 100, now: NOW },
  )
  return { totalSearches, topQueries, zeroResultQueries }
}

/** 40 days of searches, every hour of today, today's open hour and a clock-skewed future hour. */
function history(): KeywordLogEntry[] {
  const entries: KeywordLogEntry[] = []
  for (let i = 0; i < 240; i++) entries.push(entry(i, NOW - 12 * 60_000 - i * 241 * 60_000))
  for (let i = 0; i < 12; i++) entries.push(entry(i, TODAY + i * HOUR + 20 * 60_000))
  for (let i = 0; i < 7; i++) entries.push(entry(i, NOW - i * 60_000))
  entries.push(entry(1, NOW + 2 * HOUR))
  return entries
}

describe('keyword log rollups', () => {
  it('give the same summary as counting every entry, for 1, 7, 30 and 90 days', async () => {
    const { store, at } = freshStore()
    await seed(store, history())
    // why: damaged blobs count nowhere, in both computations
    await store.set(
      `${new Date(NOW - 3 * DAY).toISOString().slice(0, 10)}/2026-11-20T05:00:00.000Z-bad`,
      '',
    )
    await store.set(
      `${new Date(NOW - HOUR).toISOString().slice(0, 10)}/2026-11-23T11:00:00.000Z-bad`,
      '{',
    )
    for (const days of [1, 7, 30, 90]) {
      expect(await summary(at(NOW), days), `${days} days`).toEqual(await rawSummary(store, days))
    }
    // and again, now read from the rollups written by the first summaries
    for (const days of [1, 30]) {
      expect(await summary(at(NOW), days)).toEqual(await rawSummary(store, days))
    }
  }, 120_000)

  it('a 30-day summary then reads one blob per past day and per closed hour (open hours from their keys)', async () => {
    const { store, at } = freshStore()
    const entries = history()
    await seed(store, entries)
    await summary(at(NOW), 30)
    blobs.operations.length = 0
    await summary(at(NOW), 30)
    const reads = blobs.operations.filter((op) => op.type === 'get').length
    const today = entries.filter((e) => Date.parse(e.timestamp) >= TODAY)
    const open = today.filter((e) => Date.parse(e.timestamp) >= TODAY + 12 * HOUR)
    const closedHours = new Set(
      today.map((e) => e.timestamp.slice(0, 13)).filter((h) => h < '2026-11-23T12'),
    )
    // 29 day rollups + one per closed hour of today with searches; the open hours' entries are
    // counted from their keys, which carry the search
    expect(open.length).toBeGreaterThan(0)
    expect(reads).toBe(29 + closedHours.size)
    expect(closedHours.size).toBe(12)
  }, 60_000)

  it('rolls and counts entries whose key carries no search (a long keyword, an older key) by reading them', async () => {
    const { store, at } = freshStore()
    await seed(store, history())
    const long = { ...entry(0, TODAY + 3 * HOUR), keyword: '急須'.repeat(200) }
    await seed(store, [long])
    const older = entry(2, TODAY - 2 * DAY + 4 * HOUR)
    await store.setJSON(`${older.timestamp.slice(0, 10)}/${older.timestamp}-0a1b2c3d`, older)
    const { blobs: listed } = await store.list({ prefix: `${long.timestamp.slice(0, 10)}/` })
    expect(listed.filter(({ key }) => !key.includes('~'))).toHaveLength(1)
    await rollUpClosedPeriods(at(NOW), { now: NOW })
    for (const days of [1, 7])
      expect(await summary(at(NOW), days)).toEqual(await rawSummary(store, days))
  }, 60_000)

  it('counts an entry that lands after its hour was rolled (late), once', async () => {
    const { store, at } = freshStore()
    await seed(store, history())
    const before = await summary(at(NOW), 7)
    expect(before).toEqual(await rawSummary(store, 7))
    // a search of 09:30 today whose write lands at 12:34, after 09:00 was rolled; and one of 3 days ago
    const late = [entry(3, TODAY + 9.5 * HOUR), entry(4, TODAY - 3 * DAY + 5 * HOUR)]
    for (const e of late) await at(NOW).append(e)
    const { blobs: markers } = await store.list({ prefix: 'late/' })
    expect(markers).toHaveLength(2)
    const after = await summary(at(NOW), 7)
    expect(after).toEqual(await rawSummary(store, 7))
    expect(after.totalSearches).toBe(before.totalSearches + 2)
    // rolling again changes nothing: the late entries are counted once
    await rollUpClosedPeriods(at(NOW), { now: NOW, days: 7 })
    expect(await summary(at(NOW), 7)).toEqual(after)
  })

  it('counts an entry that lands in an hour that had no searches when its day was rolled', async () => {
    const { store, at } = freshStore()
    const yesterday = TODAY - DAY
    await seed(store, [entry(1, yesterday + 8.25 * HOUR)])
    expect((await summary(at(NOW), 2)).totalSearches).toBe(1)
    const { blobs: rolled } = await store.list({ prefix: 'rollups/v1/day/' })
    expect(rolled).toHaveLength(1)
    await at(NOW).append(entry(2, yesterday + 14.5 * HOUR))
    const after = await summary(at(NOW), 2)
    expect(after).toEqual(await rawSummary(store, 2))
    expect(after.totalSearches).toBe(2)
  })

  it('counts an entry that lands while its hour is being rolled (between listing and writing)', async () => {
    const { store, at } = freshStore()
    await seed(store, history())
    const hour = new Date(TODAY + 10 * HOUR).toISOString().slice(0, 13)
    const roller = at(NOW)
    // a writer whose clock is behind: it thinks its hour is still open, so it never checks
    const slowWriter = keywordLogRepository(store, { now: () => TODAY + 10 * HOUR + 1000 })
    const racing: KeywordLogRepository = {
      ...roller,
      async createRollup(kind, rollup) {
        if (kind === 'hour' && rollup.period === hour) {
          await slowWriter.append(entry(2, TODAY + 10.9 * HOUR))
        }
        return roller.createRollup(kind, rollup)
      },
    }
    await hourRollups(racing, hour.slice(0, 10), [hour])
    const { blobs: markers } = await store.list({ prefix: 'late/' })
    expect(markers.map((m) => m.key)).toEqual([expect.stringContaining(`/${hour}`)])
    expect(await summary(roller, 1)).toEqual(await rawSummary(store, 1))
  })

  it('two rollers at once agree on one rollup', async () => {
    const { store, at } = freshStore()
    await seed(store, history())
    await Promise.all([
      rollUpClosedPeriods(at(NOW), { now: NOW, days: 3 }),
      rollUpClosedPeriods(at(NOW), { now: NOW, days: 3 }),
    ])
    expect(await summary(at(NOW), 3)).toEqual(await rawSummary(store, 3))
  })
})

describe('the scheduled rollup function', () => {
  it('runs every hour and rolls the closed hours and days of the last 90 days', async () => {
    expect(config.schedule).toBe('@hourly')
    const { store, context } = freshStore()
    const yesterday = new Date(NOW - DAY).toISOString().slice(0, 10)
    await seed(store, [entry(1, Date.parse(`${yesterday}T08:15:00Z`))])
    // why: Netlify's scheduler POSTs the next run's time
    const response = await keywordRollup({ now: () => NOW })(
      new Request('http://localhost/.netlify/functions/search-keywords-rollup', {
        method: 'POST',
        body: JSON.stringify({ next_run: new Date(NOW + HOUR).toISOString() }),
      }),
      context,
    )
    expect(response.status).toBe(200)
    const { blobs: rollups } = await store.list({ prefix: 'rollups/' })
    const keys = rollups.map((blob) => blob.key)
    expect(keys).toContain(`rollups/v1/hour/${yesterday}T08`)
    // why: at 12:34 yesterday is closed (from 00:10 on), so its day rollup is there too
    expect(keys).toContain(`rollups/v1/day/${yesterday}`)
  })
})
