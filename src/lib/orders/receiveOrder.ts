import type { AuditRecorder } from '../audit/auditTrail.js'
import { mapWithConcurrency } from '../concurrency.js'
import { clickRecipient } from '../demand/clickLink.js'
import type { Logger } from '../log.js'
import { findProduct, findSku, type ProductTarget } from '../productCatalogue.js'
import { isRunning, noticeStateOf } from '../restock/noticeState.js'
import { emailHash, normaliseEmail } from '../storage/emailHash.js'
import type { NotificationHistory, NotifySubscription } from '../storage/records.js'
import type { Repositories } from '../storage/repositories.js'
import { endSubscriptions } from '../subscriptions/endSubscriptions.js'
import { PRODUCT_NOT_FOUND, type StockItemError } from '../stock/stockUpdates.js'
import type { OrderEvent } from './orderSchemas.js'

/**
 * What an order the checkout reports (POST /api/order-webhook) does, once per order id:
 * - closes the buyer's pending sign-ups for each product bought (`unsubscribed`,
 *   `unsubscribeReason: "purchased"`), so nobody is told a product is back after buying it; a
 *   line whose sku names one variant closes the sign-ups for that variant only;
 * - counts the order for the latest restock notice of that product that reached the buyer's
 *   address within ATTRIBUTION_DAYS before the order (`at`, else now), and says whether the
 *   buyer followed that notice's link (storage/orderAttributions.ts); the overview adds them up
 *   per notice.
 * The address is read, compared and hashed, never stored or logged.
 */

const DAY_MS = 24 * 60 * 60 * 1000

export interface OrderDeps {
  repositories: Pick<
    Repositories,
    'orderEvents' | 'subscriptions' | 'history' | 'demand' | 'orderAttributions'
  >
  /** Where each sign-up a purchase closed is recorded (actor: the order webhook). */
  audit: AuditRecorder
  log: Logger
  /** The request's clock, ms since the epoch. */
  now: () => number
  /** `ATTRIBUTION_DAYS`. */
  attributionDays: number
  /** `UNSUBSCRIBE_SECRET`, which names recipients in click marks; null: clicks are not read. */
  clickSecret: string | null
}

/** One product (or variant) of the order, as the answer reports it. */
export interface OrderedProduct {
  productSlug: string
  /** The variant bought, when the line named one by its sku; absent otherwise. */
  variant?: string
  /** Units bought (the order's lines for it added). */
  quantity: number
  /** The buyer's pending sign-ups for it that this order closed. */
  closedSignups: number
  /** The restock notice the order is counted for, or null when none reached the buyer in time. */
  notificationId: string | null
  /** Whether the buyer followed that notice's product link. */
  clicked: boolean
}

export type OrderOutcome =
  { duplicate: true } | { duplicate: false; products: OrderedProduct[]; errors: StockItemError[] }

/** Applies one order event once: an id seen before (or being applied now) changes nothing. */
export async function receiveOrder(order: OrderEvent, deps: OrderDeps): Promise<OrderOutcome> {
  const { repositories, log } = deps
  const start = await repositories.orderEvents.begin(order.id, deps.now())
  if (start !== 'new') {
    log.info('order.webhook.duplicate', { eventId: order.id, state: start })
    return { duplicate: true }
  }
  const { units, errors, allUnits } = resolveItems(order.items)
  const orderedAt = order.at ? Date.parse(order.at) : deps.now()
  const address = normaliseEmail(order.email)
  const notices = units.size > 0 ? (await repositories.history.list()).records : []
  const products = await mapWithConcurrency([...units.values()], 5, ({ target, quantity }) =>
    applyToProduct({ target, quantity, address, orderedAt, notices, order, allUnits }, deps),
  )
  await repositories.orderEvents.complete(order.id, deps.now())
  log.info('order.received', {
    eventId: order.id,
    products: products.length,
    closedSignups: products.reduce((sum, product) => sum + product.closedSignups, 0),
    attributed: products.filter((product) => product.notificationId !== null).length,
    unknownItems: errors.length,
  })
  return { duplicate: false, products, errors }
}

/**
 * The order's lines resolved to the catalogue: units per product or variant (a sku names a
 * product without variants or one variant; a productSlug names the whole product) in the order
 * they were first named, the lines naming no product, and every unit of the order (unknown
 * products too: a total is shared over all).
 */
function resolveItems(items: OrderEvent['items']) {
  const units = new Map<string, { target: ProductTarget; quantity: number }>()
  const errors: StockItemError[] = []
  let allUnits = 0
  for (const line of items) {
    allUnits += line.quantity
    const target = orderTargetOf(line)
    if (!target) {
      errors.push({
        ...(line.productSlug ? { productSlug: line.productSlug } : { sku: line.sku }),
        error: PRODUCT_NOT_FOUND,
      })
      continue
    }
    const key =
      target.variant === undefined ? target.productSlug : `${target.productSlug}/${target.variant}`
    const quantity = (units.get(key)?.quantity ?? 0) + line.quantity
    units.set(key, { target, quantity })
  }
  return { units, errors, allUnits }
}

/** The product a line names by its slug, or the product or variant its sku names; else null. */
function orderTargetOf(line: OrderEvent['items'][number]): ProductTarget | null {
  if (line.productSlug) {
    const product = findProduct(line.productSlug)
    return product && { productSlug: product.slug }
  }
  const owner = findSku(line.sku ?? '')
  if (!owner) return null
  return owner.variant
    ? { productSlug: owner.product.slug, variant: owner.variant.id }
    : { productSlug: owner.product.slug }
}

interface ProductPurchase {
  /** The product bought, or its variant. */
  target: ProductTarget
  quantity: number
  /** The buyer's address, normalised. */
  address: string
  orderedAt: number
  /** Every stored notice (read once per order). */
  notices: readonly NotificationHistory[]
  order: OrderEvent
  allUnits: number
}

async function applyToProduct(purchase: ProductPurchase, deps: OrderDeps): Promise<OrderedProduct> {
  const { target, address } = purchase
  const { productSlug, variant } = target
  const shown = variant === undefined ? { productSlug } : { productSlug, variant }
  const { subscriptions } = deps.repositories
  const { records } = await subscriptions.listProduct(productSlug)
  const mine = records.filter(
    (record) =>
      normaliseEmail(record.email) === address &&
      (variant === undefined || record.variant === variant),
  )
  const closedSignups = await closeSignups(
    mine.filter((record) => record.status === 'pending'),
    purchase,
    deps,
  )
  const notice = latestNoticeReaching(purchase, mine, deps.attributionDays)
  if (!notice) {
    return {
      ...shown,
      quantity: purchase.quantity,
      closedSignups,
      notificationId: null,
      clicked: false,
    }
  }
  const clicked = await followedLink(notice.id, mine, deps)
  const total = purchase.order.total
  const revenue =
    total === undefined || purchase.allUnits === 0
      ? null
      : Math.round(((total * purchase.quantity) / purchase.allUnits) * 100) / 100
  await deps.repositories.orderAttributions.record(
    {
      orderId: purchase.order.id,
      noticeId: notice.id,
      productSlug,
      units: purchase.quantity,
      revenue,
      currency: revenue === null ? null : (purchase.order.currency ?? 'JPY'),
      clicked,
      orderedAt: new Date(purchase.orderedAt).toISOString(),
    },
    emailHash(address),
  )
  return {
    ...shown,
    quantity: purchase.quantity,
    closedSignups,
    notificationId: notice.id,
    clicked,
  }
}

/** Ends the buyer's pending sign-ups; answers how many this order ended. */
async function closeSignups(
  pending: readonly NotifySubscription[],
  purchase: ProductPurchase,
  deps: OrderDeps,
): Promise<number> {
  const ended = await endSubscriptions(pending, {
    subscriptions: deps.repositories.subscriptions,
    audit: deps.audit,
    reason: 'purchased',
    at: new Date(deps.now()).toISOString(),
    stillEnds: (current) => normaliseEmail(current.email) === purchase.address,
  })
  return ended.length
}

/**
 * The latest notice of the product (of the whole product, or of the variant bought) that reached
 * the address within `days` before the order: it was e-mailed (not only recorded), the address
 * is among its recipients and not among its failures, and, while it is still delivering, the
 * buyer's sign-up is already notified by it.
 */
function latestNoticeReaching(
  purchase: ProductPurchase,
  mine: readonly NotifySubscription[],
  days: number,
): NotificationHistory | null {
  const from = purchase.orderedAt - days * DAY_MS
  const reached = purchase.notices.filter((notice) => {
    const sentAt = Date.parse(notice.timestamp)
    const { productSlug, variant } = purchase.target
    if (
      notice.productSlug !== productSlug ||
      (variant !== undefined && notice.variant !== undefined && notice.variant !== variant) ||
      !(sentAt >= from && sentAt <= purchase.orderedAt)
    ) {
      return false
    }
    const state = noticeStateOf(notice)
    if (state === 'recorded') return false
    const named = (email: string) => normaliseEmail(email) === purchase.address
    if (!notice.recipientEmails.some(named)) return false
    if ((notice.failedRecipients ?? []).some(({ email }) => named(email))) return false
    return (
      !isRunning(state) ||
      mine.some((subscription) => (subscription.notifiedAt ?? '') >= notice.timestamp)
    )
  })
  return (
    reached.sort((a, b) => b.timestamp.localeCompare(a.timestamp) || b.id.localeCompare(a.id))[0] ??
    null
  )
}

/** Whether one of the buyer's sign-ups for the product clicked the notice's link. */
async function followedLink(
  noticeId: string,
  mine: readonly NotifySubscription[],
  deps: OrderDeps,
): Promise<boolean> {
  const secret = deps.clickSecret
  if (!secret) return false
  const clicks = await Promise.all(
    mine.map((subscription) =>
      deps.repositories.demand.hasClicked(noticeId, clickRecipient(subscription.id, secret)),
    ),
  )
  return clicks.some(Boolean)
}
