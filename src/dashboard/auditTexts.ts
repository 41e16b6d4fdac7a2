import { targetTitle } from '../lib/productCatalogue.js'
import {
  productFilterOf,
  productLabel,
  reservationScreen,
  statusText,
  subscriptionScreen,
} from './recordResources.js'
import { formatTime, RECORD_ONLY } from './texts.js'
import type { RouteAnswer } from '../lib/routes.js'

/** One entry of the audit trail, as the server answers it. */
export type AuditEntry = RouteAnswer<'adminAuditList'>['entries'][number]

/** What staff read for each kind of change (never its code name). */
const ACTION_LABELS: Record<AuditEntry['action'], string> = {
  status: 'ステータス変更',
  notes: 'メモを編集',
  archive: 'アーカイブ',
  unarchive: 'アーカイブから戻す',
  delete: '削除',
  send: '再入荷メール送信',
  'send-record-only': `再入荷メールを${RECORD_ONLY}`,
  schedule: '再入荷メールの送信を予約',
  stock: '在庫数を変更',
  settings: '自動再入荷通知の設定を変更',
  export: '個人データを書き出し',
  erase: '個人データを削除',
  lift: '配信停止を解除',
  'synonym-add': '同義語を追加',
  'synonym-remove': '同義語を削除',
}

// why: the shared tokens and the automatic sources are named after what they are, not after
// their variables
const ACTOR_LABELS: Record<string, string> = {
  admin: '管理用トークン',
  preorder: 'アーカイブ用トークン',
  'stock-webhook': '在庫連携（Webhook）',
  'stock-reconcile': '在庫の定期照合',
  customer: 'お客様',
  'resend-webhook': '配信エラーの報告（Resend）',
  'retention-purge': '保存期間による自動削除',
  'order-webhook': '注文連携（Webhook）',
  'signup-expiry': '登録の有効期限',
}

const RECORD_LABELS: Record<AuditEntry['record']['type'], string> = {
  reservation: '予約',
  subscription: '再入荷通知の登録',
  notification: '再入荷メール',
  product: '商品',
  person: '個人データの依頼',
  suppression: '配信停止リスト',
  synonym: '同義語',
}

const ON_OFF: Record<string, string> = { on: 'オン', off: 'オフ' }

/** Who made the change, as staff know them. */
export function actorText(actor: string): string {
  return ACTOR_LABELS[actor] ?? actor
}

/** What the change was about: the kind of record, and the product or id that names it. */
export function recordText(entry: AuditEntry): string {
  const { type, id, productSlug } = entry.record
  const what = RECORD_LABELS[type]
  // why: a variant's stock and settings are filed under `slug/variantId`
  if (type === 'product') return `${what}「${targetTitle(productFilterOf(id))}」`
  if (type === 'person' || type === 'suppression') return what
  return productSlug ? `${what} ${id}（${productLabel(productSlug)}）` : `${what} ${id}`
}

/** What changed, from and to, in words. */
export function changeText(entry: AuditEntry): string {
  const { from, to } = entry
  const resource =
    entry.record.type === 'reservation'
      ? reservationScreen
      : entry.record.type === 'subscription'
        ? subscriptionScreen
        : null
  switch (entry.action) {
    case 'status':
      return resource && from && to
        ? `「${statusText(resource, from)}」→「${statusText(resource, to)}」`
        : ''
    case 'notes':
      return to === 'shared'
        ? 'お客様へのメールに載せる'
        : to === 'shop-only'
          ? 'お客様へのメールに載せない'
          : ''
    case 'send':
      return to ? `${to} 名に送信` : ''
    case 'send-record-only':
      return to ? `${to} 名を通知済みに（メール送信サービス未設定）` : ''
    case 'stock':
      return `${from ?? '不明'} → ${to ?? '不明'}`
    case 'settings':
      return to ? `${from ? `${ON_OFF[from] ?? from} → ` : ''}${ON_OFF[to] ?? to}` : ''
    case 'export':
    case 'erase':
      return entry.record.type === 'person' && to ? `${to} 件` : ''
    case 'synonym-add':
      return to ?? ''
    default:
      return ''
  }
}

/** The kind of change in words. */
export function actionText(entry: AuditEntry): string {
  return ACTION_LABELS[entry.action]
}

/** One entry as a line of a record's timeline: when, who, what. */
export function auditEntryText(entry: AuditEntry): string {
  const change = changeText(entry)
  return `${formatTime(entry.at)} ${actorText(entry.actor)} — ${actionText(entry)}${change ? `: ${change}` : ''}`
}
