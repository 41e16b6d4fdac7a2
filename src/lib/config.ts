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
  /**
   * Public base URL of this deploy: the start of every link and product URL in messages (D1).
   * Resolved per request by `publicBaseUrl` (production: `SITE_URL`, else `URL`; deploy previews
   * and branch deploys: their own address; local: `SITE_URL`, else the served address). No
   * trailing slash.
   */
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
  /** `STOCK_WEBHOOK_SECRET`: HMAC key of `X-Stock-Signature` (POST /api/stock-webhook). Default: unset (the webhook answers 503). */
  stockWebhookSecret: string | null
  /** `STOCK_FEED_URL`: JSON or CSV stock feed the scheduled reconciliation reads. Default: unset (no reconciliation). */
  stockFeedUrl: string | null
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

/** Where the current request runs. */
export interface DeployAddress {
  /** Netlify's deploy context (`context.deploy.context`): `production`, `deploy-preview`, `branch-deploy`, `dev`. Default: `CONTEXT`, else `dev`. */
  context?: string | null
  /** Origin of the incoming request (the address this deploy was reached at). Default: none. */
  origin?: string | null
}

/**
 * The public base URL of links in messages for one deploy (D1, docs/architecture.md "Links in
 * messages"). At run time Netlify's `URL` is the production address in every context, so only
 * production uses it:
 * - `production`: `SITE_URL` (the custom domain), else `URL`, else the request's origin;
 * - `dev` (local): `SITE_URL`, else the request's origin, else `http://localhost:8888`;
 * - any other context (deploy previews, branch deploys): `DEPLOY_PRIME_URL`, else `DEPLOY_URL`,
 *   else the request's origin: a preview's e-mails link to the preview, where its data is.
 */
export function publicBaseUrl(env: Env, deploy: DeployAddress = {}): string {
  const context = (deploy.context || optional(env, 'CONTEXT') || 'dev').toLowerCase()
  const origin = deploy.origin?.trim() || null
  const candidates =
    context === 'production'
      ? [optional(env, 'SITE_URL'), optional(env, 'URL'), origin]
      : context === 'dev'
        ? [optional(env, 'SITE_URL'), origin]
        : [optional(env, 'DEPLOY_PRIME_URL'), optional(env, 'DEPLOY_URL'), origin]
  const chosen = candidates.find((candidate) => candidate !== null) ?? DEFAULT_SITE_URL
  return chosen.replace(/\/+$/, '')
}

/** The configuration for a request reaching this deploy (`deploy` decides `siteUrl`). */
export function loadConfig(env: Env = process.env, deploy: DeployAddress = {}): AppConfig {
  return {
    adminApiToken: optional(env, 'ADMIN_API_TOKEN'),
    preorderApiToken: optional(env, 'PREORDER_API_TOKEN'),
    adminAllowedOrigins: (optional(env, 'ADMIN_ALLOWED_ORIGINS') ?? '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    siteUrl: publicBaseUrl(env, deploy),
    resendApiKey: optional(env, 'RESEND_API_KEY'),
    resendFromEmail: optional(env, 'RESEND_FROM_EMAIL'),
    teamchatReservationWebhookUrl: optional(env, 'TEAMCHAT_RESERVATION_WEBHOOK_URL'),
    teamchatRestockWebhookUrl: optional(env, 'TEAMCHAT_RESTOCK_WEBHOOK_URL'),
    communitychatWebhookUrl: optional(env, 'COMMUNITYCHAT_WEBHOOK_URL'),
    unsubscribeSecret: optional(env, 'UNSUBSCRIBE_SECRET'),
    outboundTimeoutMs: positiveInteger(env, 'OUTBOUND_TIMEOUT_MS', DEFAULT_OUTBOUND_TIMEOUT_MS),
    stockWebhookSecret: optional(env, 'STOCK_WEBHOOK_SECRET'),
    stockFeedUrl: optional(env, 'STOCK_FEED_URL'),
  }
}
