import { isAllowedReservationTransition } from '../lib/admin/statusRules.js'
import { listProducts, targetKey, targetTitle } from '../lib/productCatalogue.js'
import {
  productLabel,
  reservationCsvColumns,
  subscriptionCsvColumns,
} from '../lib/admin/recordCsv.js'
import type { RouteAnswer } from '../lib/routes.js'
import { RESERVATION_STATUSES, SUBSCRIPTION_STATUSES } from '../lib/storage/records.js'
import type { CsvColumn } from './csvExport.js'
import { RESERVATION_STATUS_LABELS, SUBSCRIPTION_STATUS_LABELS } from './texts.js'

type Reservation = RouteAnswer<'adminReservationsList'>['reservations'][number]
type Subscription = RouteAnswer<'adminNotifyList'>['subscriptions'][number]
/** The fields of `Other` that `Own` lacks, as optional. */
type OthersFields<Own, Other> = Partial<Omit<Other, keyof Own>>

/**
 * A reservation or a restock subscription as the list endpoints answer it (§2.1, §2.2); the
 * fields only the other resource has are optional, so one table renders both.
 */
export type RecordRow =
  | (Reservation & OthersFields<Reservation, Subscription>)
  | (Subscription & OthersFields<Subscription, Reservation>)

/** The records of a list or archive-list answer, whichever resource it lists. */
export function recordsOf(
  answer: { reservations: RecordRow[] } | { subscriptions: RecordRow[] },
): RecordRow[] {
  return 'reservations' in answer ? answer.reservations : answer.subscriptions
}

/** Everything that differs between the reservation and the subscription screens. */
export interface DashboardResource {
  /** Route segment and CSV file name. */
  name: 'reservations' | 'subscriptions'
  title: string
  /** Noun in messages: 予約 / 登録. */
  noun: string
  /** What staff and shoppers call a record's id (the confirmation e-mail quotes it). */
  idLabel: string
  /** Its routes in the route table (src/lib/routes.ts). */
  routes: {
    list: 'adminReservationsList' | 'adminNotifyList'
    status: 'adminReservationsStatus' | 'adminNotifyStatus'
    archive: 'adminReservationsArchive' | 'adminNotifyArchive'
    unarchive: 'adminReservationsUnarchive' | 'adminNotifyUnarchive'
    delete: 'adminReservationsDelete' | 'adminNotifyDelete'
    archives: 'adminReservationsArchivesList' | 'adminNotifyArchivesList'
  }
  statusLabels: Record<string, string>
  /** Statuses the active list can be filtered by. */
  statuses: readonly string[]
  /** What the status control offers for a record now in `current` (current first). */
  statusChoices(current: string): string[]
  hasName: boolean
  hasNotes: boolean
  /** The CSV columns, with the 種類 column or without (recordCsv.ts `csvHasVariants`). */
  csvColumns: (withVariants: boolean) => CsvColumn<RecordRow>[]
}

export { productLabel }

/**
 * `[value, label]` of every catalogue product, for product filters; a product with variants is
 * followed by each variant (value `slug/variantId`, `targetKey`; label 「美濃焼 マグカップ（藍）」).
 */
export function productOptions(): [string, string][] {
  return listProducts().flatMap((product): [string, string][] => [
    [product.slug, product.variants ? `${product.title}（すべての種類）` : product.title],
    ...(product.variants ?? []).map((variant): [string, string] => {
      const target = { productSlug: product.slug, variant: variant.id }
      return [targetKey(target), targetTitle(target)]
    }),
  ])
}

/** The API's `productSlug` and `variant` filters of a product filter's value (productOptions). */
export function productFilterOf(value: string): { productSlug: string; variant?: string } {
  const slash = value.indexOf('/')
  if (slash < 0) return { productSlug: value }
  return { productSlug: value.slice(0, slash), variant: value.slice(slash + 1) }
}

/** How a row names itself in labels and messages: the name, else the e-mail. */
export function rowLabel(row: RecordRow): string {
  return row.name || row.email
}

export function rowKey(row: { id: string; productSlug: string }): string {
  return `${row.productSlug}/${row.id}`
}

function statusLabel(labels: Record<string, string>, status: string): string {
  return labels[status] ?? status
}

export const reservationScreen: DashboardResource = {
  name: 'reservations',
  title: '予約',
  noun: '予約',
  idLabel: '予約番号',
  routes: {
    list: 'adminReservationsList',
    status: 'adminReservationsStatus',
    archive: 'adminReservationsArchive',
    unarchive: 'adminReservationsUnarchive',
    delete: 'adminReservationsDelete',
    archives: 'adminReservationsArchivesList',
  },
  statusLabels: RESERVATION_STATUS_LABELS,
  statuses: RESERVATION_STATUSES,
  // why: offer only what §3.2 allows, with the same rule the server applies
  statusChoices: (current) => [
    current,
    ...RESERVATION_STATUSES.filter(
      (status) => status !== current && isAllowedReservationTransition(current, status),
    ),
  ],
  hasName: true,
  hasNotes: true,
  csvColumns: reservationCsvColumns,
}

export const subscriptionScreen: DashboardResource = {
  name: 'subscriptions',
  title: '再入荷通知の登録',
  noun: '登録',
  idLabel: '登録番号',
  routes: {
    list: 'adminNotifyList',
    status: 'adminNotifyStatus',
    archive: 'adminNotifyArchive',
    unarchive: 'adminNotifyUnarchive',
    delete: 'adminNotifyDelete',
    archives: 'adminNotifyArchivesList',
  },
  statusLabels: SUBSCRIPTION_STATUS_LABELS,
  statuses: SUBSCRIPTION_STATUSES,
  statusChoices: (current) => [
    current,
    ...SUBSCRIPTION_STATUSES.filter((status) => status !== current),
  ],
  hasName: false,
  hasNotes: false,
  csvColumns: subscriptionCsvColumns,
}

export function statusText(resource: DashboardResource, status: string): string {
  return statusLabel(resource.statusLabels, status)
}
