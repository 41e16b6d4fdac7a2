/**
 * Every environment variable the service reads is read here, once, so that the README's table
 * and the code cannot drift apart. Functions call `loadConfig()` per request: Netlify may change
 * variables between deploys, and tests set them per case.
 */

/** What the service knows about its environment. */
export interface AppConfig {
  /** `ADMIN_API_TOKEN`: token of the admin group (§5). Default: unset. */
  adminApiToken: string | null
  /** `PREORDER_API_TOKEN`: token of the archive/delete group (§5, D7). Default: unset. */
  preorderApiToken: string | null
  /** `ADMIN_ALLOWED_ORIGINS`: browser origins allowed to call admin endpoints (D8). Default: none (same origin only). */
  adminAllowedOrigins: string[]
  /** `SITE_URL`, else Netlify's `URL`, else `http://localhost:8888` (D1). No trailing slash. */
  siteUrl: string
  /** `RESEND_API_KEY`: enables e-mail delivery through Resend. Default: unset (e-mails are logged). */
  resendApiKey: string | null
  /** `RESEND_FROM_EMAIL`: sender of every e-mail. Default: unset (e-mails are logged). */
  resendFromEmail: string | null
  /** `TEAMCHAT_RESERVATION_WEBHOOK_URL`: Slack webhook of the reservation channel. Default: unset (skipped). */
  teamchatReservationWebhookUrl: string | null
  /** `TEAMCHAT_RESTOCK_WEBHOOK_URL`: Slack webhook of the restock channel. Default: unset (skipped). */
  teamchatRestockWebhookUrl: string | null
  /** `COMMUNITYCHAT_WEBHOOK_URL`: Discord webhook of the stock channel. Default: unset (skipped). */
  communitychatWebhookUrl: string | null
  /** `UNSUBSCRIBE_SECRET`: HMAC key of unsubscribe links (D9). Default: unset (restock e-mails refuse to send). */
  unsubscribeSecret: string | null
  /** `OUTBOUND_TIMEOUT_MS`: timeout of every webhook and e-mail call (D10). Default: 5000. */
  outboundTimeoutMs: number
}

const DEFAULT_SITE_URL = 'http://localhost:8888'
const DEFAULT_OUTBOUND_TIMEOUT_MS = 5000

type Env = Record<string, string | undefined>

function optional(env: Env, name: string): string | null {
  const value = env[name]?.trim()
  return value ? value : null
}

function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = optional(env, name)
  if (raw === null) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value <= 0) {
    throw new InvalidConfigError(`${name} must be a positive integer (milliseconds), got "${raw}"`)
  }
  return value
}

/** A variable is set to a value the service cannot use. The message names the variable. */
export class InvalidConfigError extends Error {
  override name = 'InvalidConfigError'
}

export function loadConfig(env: Env = process.env): AppConfig {
  const siteUrl = optional(env, 'SITE_URL') ?? optional(env, 'URL') ?? DEFAULT_SITE_URL
  return {
    adminApiToken: optional(env, 'ADMIN_API_TOKEN'),
    preorderApiToken: optional(env, 'PREORDER_API_TOKEN'),
    adminAllowedOrigins: (optional(env, 'ADMIN_ALLOWED_ORIGINS') ?? '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    siteUrl: siteUrl.replace(/\/+$/, ''),
    resendApiKey: optional(env, 'RESEND_API_KEY'),
    resendFromEmail: optional(env, 'RESEND_FROM_EMAIL'),
    teamchatReservationWebhookUrl: optional(env, 'TEAMCHAT_RESERVATION_WEBHOOK_URL'),
    teamchatRestockWebhookUrl: optional(env, 'TEAMCHAT_RESTOCK_WEBHOOK_URL'),
    communitychatWebhookUrl: optional(env, 'COMMUNITYCHAT_WEBHOOK_URL'),
    unsubscribeSecret: optional(env, 'UNSUBSCRIBE_SECRET'),
    outboundTimeoutMs: positiveInteger(env, 'OUTBOUND_TIMEOUT_MS', DEFAULT_OUTBOUND_TIMEOUT_MS),
  }
}
