import { isAllowedReservationTransition } from '../lib/admin/statusRules.js'
import { listProducts, findProduct } from '../lib/productCatalogue.js'
import type { CsvColumn } from './csvExport.js'
import { formatTime, RESERVATION_STATUS_LABELS, SUBSCRIPTION_STATUS_LABELS } from './texts.js'

/** A reservation or a restock subscription as the list endpoints answer it (§2.1, §2.2). */
export interface RecordRow {
  id: string
  productSlug: string
  status: string
  createdAt: string
  email: string
  name?: string
  notes?: string
  respondedAt?: string | null
  notifiedAt?: string | null
  /** The subscriber opted out at this time (kept when set back to pending). */
  unsubscribedAt?: string
  isArchived?: boolean
  archivedAt?: string
}

/** Everything that differs between the reservation and the subscription screens. */
export interface DashboardResource {
  /** Route segment and CSV file name. */
  name: 'reservations' | 'subscriptions'
  title: string
  /** Noun in messages: 予約 / 登録. */
  noun: string
  listField: 'reservations' | 'subscriptions'
  paths: {
    list: string
    status: string
    archive: string
    unarchive: string
    delete: string
    archives: string
  }
  statusLabels: Record<string, string>
  /** Statuses the active list can be filtered by. */
  statuses: readonly string[]
  /** What the status control offers for a record now in `current` (current first). */
  statusChoices(current: string): string[]
  hasName: boolean
  hasNotes: boolean
  csvColumns: CsvColumn<RecordRow>[]
}

/** The catalogue title of a product, else its slug. */
export function productLabel(slug: string): string {
  return findProduct(slug)?.title ?? slug
}

/** `[slug, title]` of every catalogue product, for product filters. */
export function productOptions(): [string, string][] {
  return listProducts().map((product) => [product.slug, product.title])
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

const RESERVATION_STATUSES = ['pending', 'confirmed', 'fulfilled', 'cancelled'] as const
const SUBSCRIPTION_STATUSES = ['pending', 'notified', 'unsubscribed'] as const

export const reservationScreen: DashboardResource = {
  name: 'reservations',
  title: '予約',
  noun: '予約',
  listField: 'reservations',
  paths: {
    list: '/api/admin-reservations-list',
    status: '/api/admin-reservations-status',
    archive: '/api/admin/reservations/archive',
    unarchive: '/api/admin/reservations/unarchive',
    delete: '/api/admin/reservations/delete',
    archives: '/api/admin/reservations/archives/list',
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
  csvColumns: [
    { header: 'ID', value: (row) => row.id },
    { header: '受付日時', value: (row) => formatTime(row.createdAt) },
    { header: '名前', value: (row) => row.name },
    { header: 'メールアドレス', value: (row) => row.email },
    { header: '商品', value: (row) => productLabel(row.productSlug) },
    { header: '商品スラッグ', value: (row) => row.productSlug },
    { header: 'ステータス', value: (row) => statusLabel(RESERVATION_STATUS_LABELS, row.status) },
    { header: 'メモ', value: (row) => row.notes },
    { header: '対応日時', value: (row) => formatTime(row.respondedAt) },
    { header: 'アーカイブ日時', value: (row) => formatTime(row.archivedAt) },
  ],
}

export const subscriptionScreen: DashboardResource = {
  name: 'subscriptions',
  title: '再入荷通知の登録',
  noun: '登録',
  listField: 'subscriptions',
  paths: {
    list: '/api/admin-notify-list',
    status: '/api/admin-notify-status',
    archive: '/api/admin/notify/archive',
    unarchive: '/api/admin/notify/unarchive',
    delete: '/api/admin/notify/delete',
    archives: '/api/admin/notify/archives/list',
  },
  statusLabels: SUBSCRIPTION_STATUS_LABELS,
  statuses: SUBSCRIPTION_STATUSES,
  statusChoices: (current) => [
    current,
    ...SUBSCRIPTION_STATUSES.filter((status) => status !== current),
  ],
  hasName: false,
  hasNotes: false,
  csvColumns: [
    { header: 'ID', value: (row) => row.id },
    { header: '登録日時', value: (row) => formatTime(row.createdAt) },
    { header: 'メールアドレス', value: (row) => row.email },
    { header: '商品', value: (row) => productLabel(row.productSlug) },
    { header: '商品スラッグ', value: (row) => row.productSlug },
    { header: 'ステータス', value: (row) => statusLabel(SUBSCRIPTION_STATUS_LABELS, row.status) },
    { header: '通知日時', value: (row) => formatTime(row.notifiedAt) },
    { header: 'アーカイブ日時', value: (row) => formatTime(row.archivedAt) },
  ],
}

export function statusText(resource: DashboardResource, status: string): string {
  return statusLabel(resource.statusLabels, status)
}
