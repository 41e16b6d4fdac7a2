/**
 * The actors of changes no person made (the audit trail's `actor`): reserved, so that no
 * `STAFF_TOKENS` name can pass for one (config.ts).
 */
export const SYSTEM_ACTORS = {
  /** The inventory system's signed stock webhook. */
  stockWebhook: 'stock-webhook',
  /** The scheduled stock reconciliation (`STOCK_FEED_URL`) and the automatic waves it sends. */
  stockReconcile: 'stock-reconcile',
  /** The shopper, through a signed link (cancel from the reservation page, unsubscribe). */
  customer: 'customer',
  /** Resend's webhook reporting a bounce or a complaint (the subscriptions it ends). */
  resendWebhook: 'resend-webhook',
  /** The scheduled retention purge (the subscriptions whose time is up). */
  retentionPurge: 'retention-purge',
  /** The checkout's signed order webhook (the sign-ups a purchase closes). */
  orderWebhook: 'order-webhook',
  /** The daily check of sign-ups that have waited long (the ones it ends). */
  signupExpiry: 'signup-expiry',
  /** The sweep that ends the holds of units nobody claimed in time. */
  holdExpiry: 'hold-expiry',
  /** LINE's signed webhook (the sign-ups an unfollow ends). */
  lineWebhook: 'line-webhook',
} as const
