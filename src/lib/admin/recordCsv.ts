import { findProduct, findVariant } from '../productCatalogue.js'
import type { CsvColumn } from '../csv.js'

/**
 * The columns of the record CSV files, in Japanese, written once for the dashboard (the page it
 * holds) and the server's exports (listExports.ts); with the status words and the time format
 * staff see in the dashboard.
 */

export const RESERVATION_STATUS_LABELS: Record<string, string> = {
  pending: '未対応',
  confirmed: '確定',
  fulfilled: '受け渡し済み',
  cancelled: 'キャンセル',
  responded: '対応済み（旧）',
  reserved: '予約済み（旧）',
}

export const SUBSCRIPTION_STATUS_LABELS: Record<string, string> = {
  pending: '未通知',
  notified: '通知済み',
  unsubscribed: '配信停止',
}

/**
 * Why a subscription ended that its subscriber did not end, as staff read it: after its status,
 * 「配信停止（期限切れ）」.
 */
export const UNSUBSCRIBE_REASON_LABELS: Record<string, string> = {
  expired: '期限切れ',
  purchased: '購入済み',
}

/** The status word of a subscription, with why it ended when no person ended it. */
export function subscriptionStatusText(status: string, reason?: string | null): string {
  const word = label(SUBSCRIPTION_STATUS_LABELS, status)
  const why = reason ? UNSUBSCRIBE_REASON_LABELS[reason] : undefined
  return why ? `${word}（${why}）` : word
}

/** Japan time, as staff read it (`2026/11/22 11:25`). */
export const TIME_FORMAT = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})

/** `2026/11/22 11:25` in Japan time; '' for null, the text itself when it is not a date. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return ''
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : TIME_FORMAT.format(date)
}

/** The fields of a reservation or subscription the CSV shows (both resources have most). */
export interface CsvRecord {
  id: string
  createdAt: string
  name?: string | null
  email: string
  /** `line` for a LINE sign-up or its reservation (no address). */
  channel?: string | null
  productSlug: string
  variant?: string | null
  quantity?: number | null
  status: string
  /** A subscription ended by no person: `expired`, `purchased`. */
  unsubscribeReason?: string | null
  notes?: string | null
  respondedAt?: string | null
  notifiedAt?: string | null
  archivedAt?: string | null
  /** A LINE reservation whose last message did not reach the shopper: why (`status`) and when. */
  lineDelivery?: { status: string; at: string } | null
}

/**
 * What the メールアドレス column shows: the address, or 「LINE」 for a LINE sign-up or a
 * reservation made from one's hold (which have none).
 */
export function contactText(row: Pick<CsvRecord, 'email' | 'channel'>): string {
  return row.channel === 'line' ? 'LINE' : row.email
}

/** Why a LINE reservation's last message did not reach the shopper, as staff read it. */
export const LINE_DELIVERY_LABELS: Readonly<Record<string, string>> = {
  'not-friend': 'LINEで届いていません（友だち追加されていません）',
  failed: 'LINEで届いていません（送信に失敗しました）',
  'not-configured': 'LINEで届いていません（LINEが設定されていません）',
}

/**
 * That a LINE reservation's last message did not reach the shopper, with when
 * (「LINEで届いていません（友だち追加されていません）・2026/11/29 10:30」); '' when it did, or for
 * any other record.
 */
export function lineDeliveryText(row: Pick<CsvRecord, 'lineDelivery'>): string {
  const note = row.lineDelivery
  if (!note) return ''
  const label = LINE_DELIVERY_LABELS[note.status] ?? LINE_DELIVERY_LABELS.failed
  return `${label}・${formatTime(note.at)}`
}

/** The catalogue title of a product, else its slug. */
export function productLabel(slug: string): string {
  return findProduct(slug)?.title ?? slug
}

function label(labels: Record<string, string>, status: string): string {
  return labels[status] ?? status
}

/** The name of a record's variant (its id when the catalogue no longer lists it); '' for none. */
function variantName(row: CsvRecord): string {
  if (!row.variant) return ''
  const product = findProduct(row.productSlug)
  return (product && findVariant(product, row.variant)?.name) ?? row.variant
}

/** The record's SKU: its variant's, else its product's; '' when there is none. */
function skuOf(row: CsvRecord): string {
  const product = findProduct(row.productSlug)
  if (!product) return ''
  if (row.variant) return findVariant(product, row.variant)?.sku ?? ''
  return product.sku ?? ''
}

/**
 * Whether a CSV of `rows` has the 種類 (variant) column: when a row names a variant, or when the
 * list is filtered to a product with variants (`productSlug`), so that even its empty export has
 * it. A CSV of records without variants keeps exactly the columns it always had.
 */
export function csvHasVariants(rows: readonly CsvRecord[], productSlug?: string): boolean {
  if (productSlug && findProduct(productSlug)?.variants !== undefined) return true
  return rows.some((row) => Boolean(row.variant))
}

const VARIANT_COLUMN: CsvColumn<CsvRecord> = { header: '種類', value: variantName }

/** The columns of a reservation CSV; `withVariants` adds 種類 after 商品 (csvHasVariants). */
export function reservationCsvColumns(withVariants: boolean): CsvColumn<CsvRecord>[] {
  return withVariants ? withVariantColumn(RESERVATION_CSV_COLUMNS) : RESERVATION_CSV_COLUMNS
}

/** The columns of a restock subscription CSV; `withVariants` as for reservations. */
export function subscriptionCsvColumns(withVariants: boolean): CsvColumn<CsvRecord>[] {
  return withVariants ? withVariantColumn(SUBSCRIPTION_CSV_COLUMNS) : SUBSCRIPTION_CSV_COLUMNS
}

function withVariantColumn(columns: CsvColumn<CsvRecord>[]): CsvColumn<CsvRecord>[] {
  const after = columns.findIndex((column) => column.header === '商品') + 1
  return [...columns.slice(0, after), VARIANT_COLUMN, ...columns.slice(after)]
}

const RESERVATION_CSV_COLUMNS: CsvColumn<CsvRecord>[] = [
  { header: '予約番号', value: (row) => row.id },
  { header: '受付日時', value: (row) => formatTime(row.createdAt) },
  { header: '名前', value: (row) => row.name },
  { header: 'メールアドレス', value: contactText },
  { header: '商品', value: (row) => productLabel(row.productSlug) },
  { header: '商品コード', value: skuOf },
  { header: '数量', value: (row) => String(row.quantity ?? 1) },
  { header: 'ステータス', value: (row) => label(RESERVATION_STATUS_LABELS, row.status) },
  { header: 'メモ', value: (row) => row.notes },
  { header: '対応日時', value: (row) => formatTime(row.respondedAt) },
  { header: 'アーカイブ日時', value: (row) => formatTime(row.archivedAt) },
  // why: last, so that a sheet that reads the columns before it by position keeps reading them
  { header: 'LINE配信状況', value: lineDeliveryText },
]

const SUBSCRIPTION_CSV_COLUMNS: CsvColumn<CsvRecord>[] = [
  { header: '登録番号', value: (row) => row.id },
  { header: '登録日時', value: (row) => formatTime(row.createdAt) },
  { header: 'メールアドレス', value: contactText },
  { header: '商品', value: (row) => productLabel(row.productSlug) },
  { header: '商品コード', value: skuOf },
  {
    header: 'ステータス',
    value: (row) => subscriptionStatusText(row.status, row.unsubscribeReason),
  },
  { header: '通知日時', value: (row) => formatTime(row.notifiedAt) },
  { header: 'アーカイブ日時', value: (row) => formatTime(row.archivedAt) },
]
