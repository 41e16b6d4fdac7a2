import { z } from '../../generated/zod.js'
import { mapWithConcurrency } from '../concurrency.js'
import {
  listProducts,
  targetKey,
  targetTitle,
  type CatalogueTarget,
  type ProductTarget,
} from '../productCatalogue.js'
import { holdsUnits, productUnits, unitsOf, type UnitsDeps } from '../reservations/productUnits.js'
import { summarizeSearchKeywords } from '../search/analytics/searchAnalytics.js'
import { answerFieldsOf, noticeStateOf } from '../restock/noticeState.js'
import type { Services } from '../services.js'
import { unitLedgerKey } from '../storage/blobLayout.js'
import type { DemandKind } from '../storage/demandLog.js'
import { readOnce } from '../storage/keywordLogRepository.js'
import type { DeliveryMode, NotificationHistory } from '../storage/records.js'
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

/** The demand of a product, or of one variant of it. */
export interface TargetDemand {
  /** Pending, confirmed (or never asked to confirm), not archived subscriptions. */
  waiting: number
  /** Units held by reservations that are not cancelled. */
  reservedUnits: number
  /** The reservation cap, or null without one. */
  cap: number | null
}

/** One variant's line of a product's demand. */
export interface VariantDemand extends TargetDemand {
  /** The variant's id. */
  variant: string
  /** Its name, shown to people. */
  name: string
}

export interface ProductDemand extends TargetDemand {
  productSlug: string
  title: string
  /**
   * A product with variants: each variant's demand, in catalogue order; the fields above sum
   * them (`cap` when every variant has one). Absent for a product without variants.
   */
  variants?: VariantDemand[]
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
  /** Orders counted for the notice (POST /api/order-webhook, within ATTRIBUTION_DAYS). */
  orders: number
  /** Of those, orders whose buyer had followed the notice's link. */
  ordersAfterClick: number
  /** Units those orders bought of the notice's product. */
  units: number
  /** Their revenue per currency (each order's total shared by units); empty when none gave one. */
  revenue: Record<string, number>
  /** Orders per e-mail sent (0–1, 4 decimals); null when nothing was e-mailed. */
  conversionRate: number | null
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
 * sent, failed, clicks and the orders counted for it (units, revenue, conversion rate); top and
 * zero-result queries against the period before.
 */
export async function demandOverview(
  services: Pick<Services, 'repositories' | 'keywordLog' | 'now'>,
  { days }: { days: number },
): Promise<DemandOverview> {
  const at = services.now()
  const periodDays = lastJstDays(at, days)
  // why: the series, the period and the period before count from the same rollups: read once
  const keywordLog = readOnce(services.keywordLog)
  const sources = { demand: services.repositories.demand, keywordLog }
  const [counts, products, notices, searches] = await Promise.all([
    dailySeries(sources, periodDays, at),
    productDemand(services),
    noticeDemand(services, jstDayStart(periodDays[0])),
    searchTrends({ keywordLog }, days, at),
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
 * Confirmed subscribers waiting and units reserved, by product and variant: from the counters kept at every
 * write (a few blobs), or, while they are not exact (the lists and stats make them so), by
 * scanning both collections.
 */
async function waitingAndReserved(services: Pick<Services, 'repositories'>): Promise<{
  waiting: Map<string, number>
  reserved: Map<string, number>
  /** Units held by reservations of exactly this target (a product's own: without a variant). */
  ownReserved: Map<string, number>
}> {
  const { subscriptions, reservations } = services.repositories
  const waiting = new Map<string, number>()
  const reserved = new Map<string, number>()
  const ownReserved = new Map<string, number>()
  // counted per product and, for a record with a variant, per variant too (`targetKey`)
  const add = (map: Map<string, number>, target: ProductTarget, n: number) => {
    map.set(target.productSlug, (map.get(target.productSlug) ?? 0) + n)
    if (target.variant !== undefined)
      map.set(targetKey(target), (map.get(targetKey(target)) ?? 0) + n)
  }
  const addHeld = (target: ProductTarget, n: number) => {
    add(reserved, target, n)
    ownReserved.set(targetKey(target), (ownReserved.get(targetKey(target)) ?? 0) + n)
  }
  const [subscribed, held] = await Promise.all([
    subscriptions.groupCounts({ completing: false }),
    reservations.groupCounts({ completing: false }),
  ])
  if (subscribed && held) {
    for (const { values, count } of subscribed) {
      const { status, archived, confirmation, product, variant } = values
      if (status === 'pending' && archived === 'active' && confirmation === 'given')
        add(waiting, { productSlug: product, variant: variant || undefined }, count)
    }
    for (const { values, sums } of held) {
      const target = { productSlug: values.product, variant: values.variant || undefined }
      if (holdsUnits(values.status)) addHeld(target, sums.units ?? 0)
    }
    return { waiting, reserved, ownReserved }
  }
  // why: scanned, not listed: at 100k records each collection would hold 34 MB of records
  await subscriptions.scan((record) => {
    if (record.status !== 'pending' || record.isArchived || record.confirmedAt === null) return
    add(waiting, record, 1)
  })
  await reservations.scan((record) => {
    if (holdsUnits(record.status)) addHeld(record, unitsOf(record))
  })
  return { waiting, reserved, ownReserved }
}

async function productDemand(
  services: Pick<Services, 'repositories' | 'now'>,
): Promise<ProductDemand[]> {
  const [scanned, ledgers] = await Promise.all([
    waitingAndReserved(services),
    services.repositories.unitLedgerKeys(),
  ])
  const counted = { ...scanned, ledgers }
  const rows = await Promise.all(
    listProducts().map(async (product): Promise<ProductDemand> => {
      if (!product.variants) {
        return {
          productSlug: product.slug,
          title: product.title,
          ...(await targetDemand({ product, variant: null }, counted, services)),
        }
      }
      const variants = await Promise.all(
        product.variants.map(async (variant): Promise<VariantDemand> => ({
          variant: variant.id,
          name: variant.name,
          ...(await targetDemand({ product, variant }, counted, services)),
        })),
      )
      return { productSlug: product.slug, title: product.title, ...sumOf(variants) }
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

/**
 * The demand of a product without variants, or of one variant, from the counts scanned. A
 * capped target's held units come from its ledger (what the cap is checked against), read only
 * when one is stored (`ledgers`): a missing ledger is built from the target's reservations that
 * hold units, which is what the counts counted.
 */
async function targetDemand(
  target: CatalogueTarget,
  counted: Awaited<ReturnType<typeof waitingAndReserved>> & { ledgers: Set<string> },
  deps: UnitsDeps,
): Promise<TargetDemand> {
  const key = targetKey({ productSlug: target.product.slug, variant: target.variant?.id })
  const units = productUnits(target, deps)
  let held = counted.reserved.get(key) ?? 0
  if (units) {
    const stored = counted.ledgers.has(unitLedgerKey(target.product.slug, target.variant?.id))
    const own = counted.ownReserved.get(key) ?? 0
    held = stored ? units.limit - (await units.remaining()) : Math.min(units.limit, own)
  }
  return { waiting: counted.waiting.get(key) ?? 0, reservedUnits: held, cap: units?.limit ?? null }
}

/** A product's demand as the sum of its variants', with the variants' lines. */
function sumOf(variants: VariantDemand[]): TargetDemand & { variants: VariantDemand[] } {
  const capped = variants.every((line) => line.cap !== null)
  return {
    waiting: variants.reduce((sum, line) => sum + line.waiting, 0),
    reservedUnits: variants.reduce((sum, line) => sum + line.reservedUnits, 0),
    cap: capped ? variants.reduce((sum, line) => sum + (line.cap ?? 0), 0) : null,
    variants,
  }
}

/** A notice's line as the history counters keep it (one group per notice), or its record. */
interface NoticeLine {
  id: string
  productSlug: string
  variant?: string
  timestamp: string
  sentCount: number
  failed: number
  state: Parameters<typeof noticeStateOf>[0]
}

/**
 * The notices of the period: from the history's counters (one blob), or, while they are not
 * exact (the background rebuild makes them so), from the records.
 */
async function noticeLines(history: Services['repositories']['history']): Promise<NoticeLine[]> {
  const groups = await history.groupCounts({ completing: false })
  if (!groups) {
    const { records } = await history.list()
    return records.map((record) => ({
      ...record,
      failed: record.failedRecipients.length,
      state: record,
    }))
  }
  return groups
    .filter((group) => group.count > 0)
    .map(({ values, sums }) => {
      const [status, deliveryState, deliveryMode] = JSON.parse(values.state) as (string | null)[]
      return {
        id: values.id,
        productSlug: values.product,
        ...(values.variant ? { variant: values.variant } : {}),
        timestamp: values.timestamp,
        sentCount: sums.sent ?? 0,
        failed: sums.failed ?? 0,
        state: {
          status: status as NotificationHistory['status'],
          deliveryState: (deliveryState ?? undefined) as NotificationHistory['deliveryState'],
          deliveryMode: (deliveryMode ?? undefined) as NotificationHistory['deliveryMode'],
        },
      }
    })
}

async function noticeDemand(
  services: Pick<Services, 'repositories'>,
  since: number,
): Promise<NoticeDemand[]> {
  const { demand, orderAttributions, history } = services.repositories
  const recent = (await noticeLines(history))
    .filter((line) => Date.parse(line.timestamp) >= since)
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp))
    .slice(0, NOTICES_SHOWN)
  // why: one listing each names the notices with any click or order; only theirs are counted
  const [clicked, ordered] =
    recent.length > 0
      ? await Promise.all([demand.clickedNotices(), orderAttributions.orderedNotices()])
      : [new Set<string>(), new Set<string>()]
  const none = { orders: 0, ordersAfterClick: 0, units: 0, revenue: {} }
  const counted = await mapWithConcurrency(recent, 8, async (line) => ({
    clicks: clicked.has(line.id) ? await demand.countClicks(line.id) : 0,
    orders: ordered.has(line.id) ? await orderAttributions.countForNotice(line.id) : none,
  }))
  return recent.map((line, i) => {
    const { deliveryMode } = answerFieldsOf(line.state)
    const { clicks, orders } = counted[i]
    const emailed = deliveryMode !== 'record-only' && line.sentCount > 0
    return {
      id: line.id,
      productSlug: line.productSlug,
      title: targetTitle(line),
      timestamp: line.timestamp,
      sent: line.sentCount,
      failed: line.failed,
      clicks,
      ...orders,
      conversionRate: emailed
        ? Math.round((orders.orders / line.sentCount) * 10_000) / 10_000
        : null,
      deliveryMode,
    }
  })
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
