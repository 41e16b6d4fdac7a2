import { z } from '../../generated/zod.js'
import { mapWithConcurrency } from '../concurrency.js'
import { findProduct, listProducts } from '../productCatalogue.js'
import { holdsUnits, productUnits, unitsOf } from '../reservations/productUnits.js'
import { summarizeSearchKeywords } from '../search/analytics/searchAnalytics.js'
import { answerFieldsOf, noticeStateOf } from '../restock/noticeState.js'
import type { Services } from '../services.js'
import type { DemandKind } from '../storage/demandLog.js'
import type { DeliveryMode } from '../storage/records.js'
import { dailySeries, jstDayStart, lastJstDays } from '../demand/demandDays.js'

const DAYS_MESSAGE = 'days must be 7, 30 or 90'
/** Notices shown per period: the newest. */
const NOTICES_SHOWN = 50
/** Queries per search table. */
const QUERIES_SHOWN = 20
/** Distinct queries counted (the hint says 「100 語以上」 at this many). */
const QUERY_LIMIT = 100

/** Body of POST /api/admin/overview. */
export const overviewRequestSchema = z.object({
  days: z.union([z.literal(7), z.literal(30), z.literal(90)], { error: DAYS_MESSAGE }).default(30),
})

export type DayCounts = { day: string } & Record<DemandKind, number>

export interface ProductDemand {
  productSlug: string
  title: string
  /** Pending, confirmed (or never asked to confirm), not archived subscriptions. */
  waiting: number
  /** Units held by reservations that are not cancelled. */
  reservedUnits: number
  /** The product's reservation cap, or null without one. */
  cap: number | null
}

export interface NoticeDemand {
  id: string
  productSlug: string
  title: string
  timestamp: string
  sent: number
  failed: number
  /** Recipients who followed the product link (once each). */
  clicks: number
  /** `record-only`: no e-mail provider, nobody was e-mailed (§4.8); null on older records. */
  deliveryMode: DeliveryMode | null
}

export interface QueryTrend {
  query: string
  count: number
  /** The same query's count in the period before. */
  previous: number
}

export interface DemandOverview {
  days: number
  /** First and last JST day of the period. */
  from: string
  to: string
  series: DayCounts[]
  products: ProductDemand[]
  notices: NoticeDemand[]
  /** Searches in the last `days` UTC days (the keyword log's days). */
  totalSearches: number
  /** Distinct queries, and distinct zero-result queries, counted up to QUERY_LIMIT (100 = "100 or more"). */
  distinctQueries: number
  distinctZeroResultQueries: number
  topQueries: QueryTrend[]
  zeroResultQueries: QueryTrend[]
}

/**
 * POST /api/admin/overview (docs/dashboard.md "Overview"): the pictures of demand, all counted on
 * the server from rollups and listings (never every record in the browser): per JST day
 * reservations, sign-ups, e-mails sent and failed, searches; demand per product; per notice
 * sent, failed and clicks; top and zero-result queries against the period before.
 */
export async function demandOverview(
  services: Pick<Services, 'repositories' | 'keywordLog' | 'now'>,
  { days }: { days: number },
): Promise<DemandOverview> {
  const at = services.now()
  const periodDays = lastJstDays(at, days)
  const sources = { demand: services.repositories.demand, keywordLog: services.keywordLog }
  const [counts, products, notices, searches] = await Promise.all([
    dailySeries(sources, periodDays, at),
    productDemand(services),
    noticeDemand(services, jstDayStart(periodDays[0])),
    searchTrends(services, days, at),
  ])
  return {
    days,
    from: periodDays[0],
    to: periodDays[periodDays.length - 1],
    series: periodDays.map((day, i) => ({ day, ...counts[i] })),
    products,
    notices,
    ...searches,
  }
}

/**
 * Confirmed subscribers waiting and units reserved, by product: from the counters kept at every
 * write (a few blobs), or, while they are not exact (the lists and stats make them so), by
 * scanning both collections.
 */
async function waitingAndReserved(services: Pick<Services, 'repositories'>): Promise<{
  waiting: Map<string, number>
  reserved: Map<string, number>
}> {
  const { subscriptions, reservations } = services.repositories
  const waiting = new Map<string, number>()
  const reserved = new Map<string, number>()
  const add = (map: Map<string, number>, product: string, n: number) =>
    map.set(product, (map.get(product) ?? 0) + n)
  const [subscribed, held] = await Promise.all([
    subscriptions.groupCounts({ completing: false }),
    reservations.groupCounts({ completing: false }),
  ])
  if (subscribed && held) {
    for (const { values, count } of subscribed) {
      const { status, archived, confirmation, product } = values
      if (status === 'pending' && archived === 'active' && confirmation === 'given')
        add(waiting, product, count)
    }
    for (const { values, sums } of held) {
      if (holdsUnits(values.status)) add(reserved, values.product, sums.units ?? 0)
    }
    return { waiting, reserved }
  }
  // why: scanned, not listed: at 100k records each collection would hold 34 MB of records
  await subscriptions.scan((record) => {
    if (record.status !== 'pending' || record.isArchived || record.confirmedAt === null) return
    add(waiting, record.productSlug, 1)
  })
  await reservations.scan((record) => {
    if (holdsUnits(record.status)) add(reserved, record.productSlug, unitsOf(record))
  })
  return { waiting, reserved }
}

async function productDemand(
  services: Pick<Services, 'repositories' | 'now'>,
): Promise<ProductDemand[]> {
  const { waiting, reserved } = await waitingAndReserved(services)
  const rows = await Promise.all(
    listProducts().map(async (product): Promise<ProductDemand> => {
      const units = productUnits(product, services)
      // why: a capped product's held units come from its ledger (what the cap is checked against)
      const held = units ? units.limit - (await units.remaining()) : null
      return {
        productSlug: product.slug,
        title: product.title,
        waiting: waiting.get(product.slug) ?? 0,
        reservedUnits: held ?? reserved.get(product.slug) ?? 0,
        cap: units?.limit ?? null,
      }
    }),
  )
  return rows
    .filter((row) => row.waiting > 0 || row.reservedUnits > 0 || row.cap !== null)
    .sort(
      (a, b) =>
        b.waiting + b.reservedUnits - (a.waiting + a.reservedUnits) ||
        a.productSlug.localeCompare(b.productSlug),
    )
}

async function noticeDemand(
  services: Pick<Services, 'repositories'>,
  since: number,
): Promise<NoticeDemand[]> {
  const { records } = await services.repositories.history.list()
  const recent = records
    .filter((record) => Date.parse(record.timestamp) >= since)
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp))
    .slice(0, NOTICES_SHOWN)
  const clicks = await mapWithConcurrency(recent, 8, (record) =>
    services.repositories.demand.countClicks(record.id),
  )
  return recent.map((record, i) => ({
    id: record.id,
    productSlug: record.productSlug,
    title: findProduct(record.productSlug)?.title ?? record.productSlug,
    timestamp: record.timestamp,
    sent: record.sentCount,
    failed: record.failedRecipients.length,
    clicks: clicks[i],
    deliveryMode: answerFieldsOf(noticeStateOf(record)).deliveryMode,
  }))
}

async function searchTrends(
  services: Pick<Services, 'keywordLog'>,
  days: number,
  now: number,
): Promise<Omit<DemandOverview, 'days' | 'from' | 'to' | 'series' | 'products' | 'notices'>> {
  const [current, both] = await Promise.all([
    summarizeSearchKeywords(services.keywordLog, { days, limit: QUERY_LIMIT, now }),
    // why: the period before = the doubled period minus this one (both from day rollups)
    summarizeSearchKeywords(services.keywordLog, { days: days * 2, limit: 10_000, now }),
  ])
  type Counted = { query: string; count: number }[]
  const before = (doubled: Counted, shown: Counted): QueryTrend[] => {
    const inBoth = new Map(doubled.map(({ query, count }) => [query, count]))
    return shown.slice(0, QUERIES_SHOWN).map(({ query, count }) => ({
      query,
      count,
      previous: Math.max(0, (inBoth.get(query) ?? count) - count),
    }))
  }
  return {
    totalSearches: current.totalSearches,
    distinctQueries: current.topQueries.length,
    distinctZeroResultQueries: current.zeroResultQueries.length,
    topQueries: before(both.topQueries, current.topQueries),
    zeroResultQueries: before(both.zeroResultQueries, current.zeroResultQueries),
  }
}
