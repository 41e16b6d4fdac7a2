import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { noticeFolders } from './demandLog.js'

/**
 * Orders counted for the restock notice that led to them (orders/receiveOrder.ts), one tiny blob
 * each, written `onlyIfNew` (an order applied again writes the same key), whose key carries what
 * a notice's figures add up, so a notice is counted by one listing of its prefix, as its clicks
 * are (demandLog.ts):
 *
 * - `order-attributions/{noticeId}/{orderId}~{productSlug}~{units}~{revenue|-}~{currency|-}~{c|n}`:
 *   the order `orderId` bought `units` of the notice's product, for `revenue` (its share of the
 *   order's total, when one was given) in `currency`, after a click (`c`) or not (`n`); its body
 *   says when it was ordered. Nothing in it names the buyer.
 * - `order-buyers/{emailHash}/{noticeId}/{orderId}~{productSlug}`: which attributions are whose,
 *   the buyer named only by the hash the suppression list uses (emailHash.ts): what a person's
 *   data export lists and an erase deletes, leaving the counts without anyone behind them.
 */

const ATTRIBUTIONS = 'order-attributions'
const BUYERS = 'order-buyers'
// why: ids are [A-Za-z0-9._-]; encoding keeps any other text from making a path or a `~`
const segment = (value: string) => encodeURIComponent(value).replace(/~/g, '%7E')

/** One order's purchase of one product, counted for one notice. */
export interface OrderAttribution {
  orderId: string
  noticeId: string
  productSlug: string
  units: number
  /** The order's total shared by units among its products; null when the order gave none. */
  revenue: number | null
  /** ISO 4217 code of `revenue`; null with it. */
  currency: string | null
  /** Whether the buyer followed the notice's product link before ordering. */
  clicked: boolean
  /** When the order was placed (ISO). */
  orderedAt: string
}

/** What a notice's attributions add up to. */
export interface NoticeOrders {
  /** Distinct orders. */
  orders: number
  /** Of those, orders whose buyer followed the notice's link. */
  ordersAfterClick: number
  units: number
  /** Revenue per currency (empty when no order gave a total). */
  revenue: Record<string, number>
}

/** One attribution of a person (their data export). */
export interface BuyerAttribution {
  noticeId: string
  orderId: string
  productSlug: string
}

export interface OrderAttributionStore {
  /** Stores one attribution for `buyer` (an address hash); false when it was stored before. */
  record(attribution: OrderAttribution, buyer: string): Promise<boolean>
  /** The notices with any attribution (one listing of their folders). */
  orderedNotices(): Promise<Set<string>>
  /** What the attributions of a notice add up to (one listing). */
  countForNotice(noticeId: string): Promise<NoticeOrders>
  /** The attributions linked to an address hash. */
  ofBuyer(buyer: string): Promise<BuyerAttribution[]>
  /** Removes every link between an address hash and its attributions; answers how many. */
  forgetBuyer(buyer: string): Promise<number>
}

function attributionName(attribution: Pick<OrderAttribution, 'orderId' | 'productSlug'>): string {
  return `${segment(attribution.orderId)}~${segment(attribution.productSlug)}`
}

function figuresOf(attribution: OrderAttribution): string {
  const revenue = attribution.revenue === null ? '-' : String(attribution.revenue)
  return `${revenue}~${attribution.currency ?? '-'}~${attribution.clicked ? 'c' : 'n'}`
}

/** The order id, units, revenue, currency and click a key carries; null for a key of another shape. */
function readKey(name: string) {
  const parts = name.split('~')
  if (parts.length !== 6) return null
  const [order, , units, revenue, currency, click] = parts
  const count = Number(units)
  const amount = revenue === '-' ? null : Number(revenue)
  if (!Number.isSafeInteger(count) || (amount !== null && !Number.isFinite(amount))) return null
  return { order, units: count, revenue: amount, currency, clicked: click === 'c' }
}

export function orderAttributionStore(store: Store): OrderAttributionStore {
  const noticePrefix = (noticeId: string) => `${ATTRIBUTIONS}/${segment(noticeId)}/`
  const buyerPrefix = (buyer: string) => `${BUYERS}/${segment(buyer)}/`
  return {
    async record(attribution, buyer) {
      const name = attributionName(attribution)
      const key = `${noticePrefix(attribution.noticeId)}${name}~${attribution.units}~${figuresOf(attribution)}`
      const { modified } = await store.setJSON(key, attribution, { onlyIfNew: true })
      // why: written again on a repeat too, so that a link lost to a crash comes back
      await store.set(`${buyerPrefix(buyer)}${segment(attribution.noticeId)}/${name}`, '')
      return modified
    },
    orderedNotices: () => noticeFolders(store, `${ATTRIBUTIONS}/`),
    async countForNotice(noticeId) {
      const counted: NoticeOrders = { orders: 0, ordersAfterClick: 0, units: 0, revenue: {} }
      const orders = new Map<string, boolean>()
      const prefix = noticePrefix(noticeId)
      for await (const page of store.list({ prefix, paginate: true })) {
        for (const { key } of page.blobs) {
          const read = readKey(key.slice(prefix.length))
          if (!read) continue
          orders.set(read.order, (orders.get(read.order) ?? false) || read.clicked)
          counted.units += read.units
          if (read.revenue !== null && read.currency !== '-') {
            const sum = (counted.revenue[read.currency] ?? 0) + read.revenue
            counted.revenue[read.currency] = Math.round(sum * 100) / 100
          }
        }
      }
      counted.orders = orders.size
      counted.ordersAfterClick = [...orders.values()].filter(Boolean).length
      return counted
    },
    async ofBuyer(buyer) {
      const prefix = buyerPrefix(buyer)
      const found: BuyerAttribution[] = []
      for await (const page of store.list({ prefix, paginate: true })) {
        for (const { key } of page.blobs) {
          const [notice, name] = key.slice(prefix.length).split('/')
          const [order, product] = (name ?? '').split('~')
          if (!notice || !order || !product) continue
          found.push({
            noticeId: decodeURIComponent(notice),
            orderId: decodeURIComponent(order),
            productSlug: decodeURIComponent(product),
          })
        }
      }
      return found
    },
    async forgetBuyer(buyer) {
      const keys: string[] = []
      for await (const page of store.list({ prefix: buyerPrefix(buyer), paginate: true })) {
        keys.push(...page.blobs.map(({ key }) => key))
      }
      await mapWithConcurrency(keys, 10, (key) => store.delete(key))
      return keys.length
    },
  }
}
