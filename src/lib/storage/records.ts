/** The stored shapes of §2.1–§2.3 (plus what decisions.md adds). */

export const RESERVATION_STATUSES = ['pending', 'confirmed', 'fulfilled', 'cancelled'] as const
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number]

export const SUBSCRIPTION_STATUSES = ['pending', 'notified', 'unsubscribed'] as const
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number]

/** Fields every archivable record has (§3.3, D3). */
export interface Archivable {
  isArchived?: boolean
  /** Present only while archived. */
  archivedAt?: string
}

/** §2.2. `status` is a string because imported archives may carry legacy values (D3). */
export interface Reservation extends Archivable {
  id: string
  name: string
  /** The shopper's address; empty for a reservation of a LINE sign-up (`channel: 'line'`). */
  email: string
  /**
   * `line`: made from the hold of a LINE sign-up; its messages are pushed in LINE to
   * `lineUserId` (README "LINE"). Absent: e-mail.
   */
  channel?: 'line'
  /** The LINE user id it was made for: personal data, never logged, erased with the person. */
  lineUserId?: string
  /**
   * The last LINE message of the reservation that did not reach the shopper (a `channel: 'line'`
   * reservation); absent when none, or once a later message was pushed.
   */
  lineDelivery?: LineDeliveryNote
  productSlug: string
  /** The variant reserved (its id), for a product with variants; absent otherwise. */
  variant?: string
  status: ReservationStatus | (string & {})
  notes: string
  createdAt: string
  respondedAt: string | null
  /** Units reserved, 1…the product's `maxPerReservation`. Absent on older records: 1. */
  quantity?: number
  /** `restock-hold`: made from a unit held for a restock e-mail's recipient; absent: the form. */
  source?: 'restock-hold'
  /** When the status last changed (names the change in its e-mail's idempotency key). */
  statusChangedAt?: string
  /** Who cancelled: `customer` when the reservation was cancelled on its manage page. */
  cancelledBy?: 'customer' | 'staff'
  /** Ids of manage links already used to cancel (a used link never acts again). */
  usedManageLinks?: string[]
  /**
   * Staff chose to tell the customer the notes: every status e-mail from then on carries them,
   * until staff untick it. Absent: never chosen (the notes stay in the shop).
   */
  shareNote?: boolean
}

/** Why a reservation's LINE message did not reach the shopper (`Reservation.lineDelivery`). */
export interface LineDeliveryNote {
  /**
   * `not-friend`: the shopper does not have the official account as a friend (not pushed);
   * `failed`: LINE refused the push or did not answer; `not-configured`: LINE is not configured.
   */
  status: 'failed' | 'not-friend' | 'not-configured'
  /** When it was found (ISO). */
  at: string
  /** LINE's error (`HTTP 400`, `timeout`), or what kept it from being pushed; never the user id. */
  reason: string
}

/** §2.1. */
export interface NotifySubscription extends Archivable {
  id: string
  /** The address notices go to; empty for a LINE sign-up (`channel: 'line'`), which has none. */
  email: string
  /** `line`: notices are pushed in LINE to `lineUserId` (README "LINE"). Absent: e-mail. */
  channel?: 'line'
  /** The LINE user id of a LINE sign-up: personal data, never logged, erased with the person. */
  lineUserId?: string
  productSlug: string
  /** The variant waited for (its id), for a product with variants; absent otherwise. */
  variant?: string
  status: SubscriptionStatus
  createdAt: string
  notifiedAt: string | null
  /** When the subscriber opted out (link, one-click, bounce, staff); kept when set back to `pending`. */
  unsubscribedAt?: string
  /** When the latest consent was given for it (sign-up, or a repeated sign-up); absent on older records. */
  consentedAt?: string
  /** Double opt-in: null until the confirmation link was used; absent when none was asked. */
  confirmedAt?: string | null
  /**
   * Why it was ended without the subscriber asking: `expired` (unanswered 14 days after the
   * 「引き続き…」 e-mail), `purchased` (the buyer's order closed it). Absent otherwise, and dropped
   * when staff change its status.
   */
  unsubscribeReason?: UnsubscribeReason
  /** When the 「引き続き入荷のお知らせを希望されますか」 e-mail was sent for it; absent: never. */
  keepAskedAt?: string
  /** When the subscriber answered it with the keep link; absent: never. */
  keptAt?: string
}

/** Why a subscription ended that its subscriber did not end. */
export const UNSUBSCRIBE_REASONS = ['expired', 'purchased'] as const
export type UnsubscribeReason = (typeof UNSUBSCRIBE_REASONS)[number]

/** Where a restock delivery is: `queued` (not started) → `delivering` → `complete`. */
export const DELIVERY_STATES = ['queued', 'delivering', 'complete'] as const
export type DeliveryState = (typeof DELIVERY_STATES)[number]

/** How a restock notice reached people: `email` (Resend) or `record-only` (no provider, §4.8). */
export type DeliveryMode = 'email' | 'record-only'

/**
 * §2.3 plus `failedRecipients` (D9) and the delivery fields (docs/decisions-local.md). The three
 * fields `status`, `deliveryState` and `deliveryMode` are how one state is stored (readers of
 * §2.3 see `status`); code reads and writes them only through restock/noticeState.ts.
 */
export interface NotificationHistory {
  id: string
  productSlug: string
  /**
   * The variant whose subscribers the notice was for (a variant's wave or send); absent for a
   * whole product (every subscriber of it, whatever variant they wait for).
   */
  variant?: string
  emailTitle: string
  emailBody: string
  recipientEmails: string[]
  sentCount: number
  timestamp: string
  status: 'sent' | 'failed'
  failedRecipients: { email: string; error: string }[]
  /** `queued` → `delivering` → `complete`. Absent on records written before delivery existed. */
  deliveryState?: DeliveryState
  /** `email` when Resend delivers, `record-only` when no provider is configured (§4.8). */
  deliveryMode?: DeliveryMode
  /** When the last batch was settled. */
  completedAt?: string
  /**
   * A notice sent without an e-mail provider whose LINE recipients are pushed: how many of its
   * recipients were only recorded (marked notified when its delivery started, counted as sent
   * from then on). Absent: none.
   */
  recordedCount?: number
  /** Recipients removed from this record by a personal-data erase (docs/compliance.md). */
  erasedRecipientCount?: number
  /** Set when an automatic wave sent the notice; absent on a staff member's send. */
  trigger?: NotificationTrigger
}

/**
 * What started an automatic notice: wave `wave` of a product's automatic notice, the
 * `episode`-th time its stock rose from 0, sized `quantity` × `perUnit`.
 */
export interface NotificationTrigger {
  kind: 'stock-wave'
  episode: number
  wave: number
  quantity: number
  perUnit: number
}

/** Names one record of a product-scoped collection. */
export interface ProductRecordRef {
  id: string
  productSlug: string
}
