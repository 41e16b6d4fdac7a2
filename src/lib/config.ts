import { SYSTEM_ACTORS } from './actors.js'
import { DEFAULT_QUIET_HOURS, parseQuietHours, type QuietHours } from './quietHours.js'

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
  /**
   * `STAFF_TOKENS`: named tokens, `name:token:group` separated by commas, group `admin`,
   * `preorder` or `admin+preorder` (both); each is accepted by its groups' endpoints and names its
   * holder in the audit trail. Default: none.
   */
  staffTokens: StaffToken[]
  /** Entries of `STAFF_TOKENS` that were not understood (they match nothing). Default: none. */
  malformedStaffTokens: MalformedStaffToken[]
  /** `ADMIN_ALLOWED_ORIGINS`: browser origins allowed to call admin endpoints (D8). Default: none (same origin only). */
  adminAllowedOrigins: string[]
  /**
   * Public base URL of this deploy: the start of every link and product URL in messages (D1).
   * Resolved per request by `publicBaseUrl` (production: `SITE_URL`, else `URL`; deploy previews
   * and branch deploys: their own address; local: `SITE_URL`, else the served address). No
   * trailing slash.
   */
  siteUrl: string
  /**
   * `STOREFRONT_URL`: the shop's own site, where its product pages are: the base of every
   * product link in e-mails and chat messages (a product's front matter `url` wins; a path there
   * is read on this base). The service's own links (unsubscribe, manage, confirm, click
   * redirect) keep `siteUrl`. Default: `siteUrl`. No trailing slash.
   */
  storefrontUrl: string
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
  /**
   * `DELIVERY_BUDGET_MS`: how long one invocation of the background delivery starts batches
   * before it hands the rest to the next (restock/deliveryRun.ts). Default: 720000 (12 minutes of
   * Netlify's 15).
   */
  deliveryBudgetMs: number
  /** `SHOP_NAME`: the sender's name in every restock e-mail (特定電子メール法 Art. 4). Default: unset (production sends refused). */
  shopName: string | null
  /** `SHOP_ADDRESS`: the sender's postal address in every restock e-mail (Art. 4). Default: unset (production sends refused). */
  shopAddress: string | null
  /** `SHOP_CONTACT`: where complaints and questions go (e-mail, phone or form URL; Art. 4). Default: unset (production sends refused). */
  shopContact: string | null
  /** `RESEND_WEBHOOK_SECRET`: Svix signing secret of Resend's webhook (`whsec_…`). Default: unset (events refused with 503). */
  resendWebhookSecret: string | null
  /**
   * `NOTIFY_DOUBLE_OPT_IN`: true (`true`, `on`, `1`) asks every restock sign-up to confirm by
   * e-mail first. Default: false.
   */
  notifyDoubleOptIn: boolean
  /** `RETENTION_DAYS`: days a notified or unsubscribed subscription is kept. Default: 365. */
  retentionDays: number
  /** The deploy context this request runs in (`production`, `deploy-preview`, `dev`, …). Default: `CONTEXT`, else `dev`. */
  deployContext: string
  /**
   * `RESERVATION_LINK_SECRET`: HMAC key of the reservation manage links (`/reservation/manage`).
   * Default: unset (e-mails carry no manage link and the page answers 503).
   */
  reservationLinkSecret: string | null
  /**
   * `RESERVATION_STATUS_EMAILS`: false (`off`, `false`, `0`) stops the e-mails sent when staff
   * confirm, fulfil or cancel a reservation. Default: true.
   */
  reservationStatusEmails: boolean
  /**
   * `RESERVATION_STATUS_EMAIL_DELAY_MS`: how long a status e-mail waits before it reads the
   * reservation again and is sent only if the change is still its state (a change staff undo, or
   * a delete, within this time e-mails nothing). Default: 10000.
   */
  reservationStatusEmailDelayMs: number
  /** `STOCK_WEBHOOK_SECRET`: HMAC key of `X-Stock-Signature` (POST /api/stock-webhook). Default: unset (the webhook answers 503). */
  stockWebhookSecret: string | null
  /** `STOCK_FEED_URL`: JSON or CSV stock feed the scheduled reconciliation reads. Default: unset (no reconciliation). */
  stockFeedUrl: string | null
  /**
   * `QUIET_HOURS`: the JST hours when automatic waves (and other automatic e-mails) wait, as
   * `from-until` (`21-8`: 21:00 to 8:00); `off` for none. Default: `21-8`.
   */
  quietHours: QuietHours | null
  /**
   * `SIGNUP_EXPIRY_DAYS`: days after which a pending sign-up is asked whether it still wants the
   * restock e-mail (and ends 14 days later unanswered); 0 = never. Default: 180.
   */
  signupExpiryDays: number
  /** `ORDER_WEBHOOK_SECRET`: HMAC key of `X-Order-Signature` (POST /api/order-webhook). Default: unset (the webhook answers 503). */
  orderWebhookSecret: string | null
  /** `ATTRIBUTION_DAYS`: days after a restock notice reached a shopper within which their order is counted for it. Default: 7. */
  attributionDays: number
  /**
   * Whether restock e-mails can be delivered, decided once: the settings, or which part is
   * missing. Default: not ready (`provider` missing).
   */
  emailDelivery: EmailDelivery
  /**
   * LINE as a second channel (README "LINE"): ready only when all four of
   * `LINE_LOGIN_CHANNEL_ID`, `LINE_LOGIN_CHANNEL_SECRET`, `LINE_MESSAGING_CHANNEL_ACCESS_TOKEN` and
   * `LINE_MESSAGING_CHANNEL_SECRET` are set. Default: null (no LINE button, the LINE endpoints
   * answer 503).
   */
  line: LineSettings | null
}

/** The two LINE channels of a shop (README "LINE") and where their APIs are. */
export interface LineSettings {
  /** `LINE_LOGIN_CHANNEL_ID`: the LINE Login channel's id (the ID token's audience). */
  loginChannelId: string
  /** `LINE_LOGIN_CHANNEL_SECRET`: signs the ID tokens, and keys our signed login `state`. */
  loginChannelSecret: string
  /** `LINE_MESSAGING_CHANNEL_ACCESS_TOKEN`: the Messaging API channel's long-lived access token. */
  messagingAccessToken: string
  /** `LINE_MESSAGING_CHANNEL_SECRET`: signs the webhook's `X-Line-Signature`. */
  messagingChannelSecret: string
  /**
   * `LINE_API_BASE_URL`: the Messaging API and the Login token endpoint. Default:
   * `https://api.line.me` (tests and `npm start` point it at the local stand-in).
   */
  apiBaseUrl: string
  /**
   * `LINE_LOGIN_BASE_URL`: where the shopper's browser is sent to log in. Default:
   * `https://access.line.me` (tests and `npm start` point it at the local stand-in).
   */
  loginBaseUrl: string
}

function lineSettingsOf(env: Env): LineSettings | null {
  const loginChannelId = optional(env, 'LINE_LOGIN_CHANNEL_ID')
  const loginChannelSecret = optional(env, 'LINE_LOGIN_CHANNEL_SECRET')
  const messagingAccessToken = optional(env, 'LINE_MESSAGING_CHANNEL_ACCESS_TOKEN')
  const messagingChannelSecret = optional(env, 'LINE_MESSAGING_CHANNEL_SECRET')
  if (!loginChannelId || !loginChannelSecret || !messagingAccessToken || !messagingChannelSecret) {
    return null
  }
  const base = (value: string | null, fallback: string) => (value ?? fallback).replace(/\/+$/, '')
  return {
    loginChannelId,
    loginChannelSecret,
    messagingAccessToken,
    messagingChannelSecret,
    apiBaseUrl: base(optional(env, 'LINE_API_BASE_URL'), 'https://api.line.me'),
    loginBaseUrl: base(optional(env, 'LINE_LOGIN_BASE_URL'), 'https://access.line.me'),
  }
}

/** What restock e-mail delivery needs: Resend and the unsubscribe-link secret. */
export interface EmailDeliverySettings {
  ready: true
  apiKey: string
  from: string
  unsubscribeSecret: string
}

/**
 * Why restock e-mails cannot be delivered. `provider`: RESEND_API_KEY or RESEND_FROM_EMAIL is
 * unset (a send only records, §4.8). `unsubscribe-secret`: Resend is set but UNSUBSCRIBE_SECRET is
 * not, so no e-mail could carry its unsubscribe link (a send is refused).
 */
export interface EmailDeliveryMissing {
  ready: false
  missing: 'provider' | 'unsubscribe-secret'
  /** The answer's text (503) where delivery is required. */
  message: string
  /** For the log: which variables to set, and how. */
  fix: string
}

export type EmailDelivery = EmailDeliverySettings | EmailDeliveryMissing

/** The 503 text when restock e-mail delivery is needed but Resend is not set. */
export const EMAIL_NOT_CONFIGURED = 'Email delivery is not configured'

function emailDeliveryOf(env: Env): EmailDelivery {
  const apiKey = optional(env, 'RESEND_API_KEY')
  const from = optional(env, 'RESEND_FROM_EMAIL')
  const unsubscribeSecret = optional(env, 'UNSUBSCRIBE_SECRET')
  if (!apiKey || !from) {
    return {
      ready: false,
      missing: 'provider',
      message: EMAIL_NOT_CONFIGURED,
      fix: 'RESEND_API_KEY or RESEND_FROM_EMAIL is not set',
    }
  }
  if (!unsubscribeSecret) {
    return {
      ready: false,
      missing: 'unsubscribe-secret',
      message: `${EMAIL_NOT_CONFIGURED}: UNSUBSCRIBE_SECRET is not set`,
      fix:
        'UNSUBSCRIBE_SECRET is not set, so restock e-mails cannot carry a valid unsubscribe link. ' +
        'Set it to a long random value (e.g. `openssl rand -hex 32`) in the site environment.',
    }
  }
  return { ready: true, apiKey, from, unsubscribeSecret }
}

/** One entry of `STAFF_TOKENS`. */
export interface StaffToken {
  /** Who holds it: the actor of every change made with it. */
  name: string
  token: string
  /** The token groups (§5) it is accepted by: `admin`, `preorder`, or both (`admin+preorder`). */
  groups: readonly ('admin' | 'preorder')[]
}

/** The groups each spelling of an entry's third part grants; any other spelling is malformed. */
const STAFF_GROUPS: Readonly<Record<string, StaffToken['groups']>> = {
  admin: ['admin'],
  preorder: ['preorder'],
  'admin+preorder': ['admin', 'preorder'],
  'preorder+admin': ['admin', 'preorder'],
}

/** An entry of `STAFF_TOKENS` that was not understood: its 1-based position and why, never its text. */
export interface MalformedStaffToken {
  position: number
  reason: string
}

const STAFF_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/
// why: the actors of ADMIN_API_TOKEN, PREORDER_API_TOKEN and the automatic sources; a person named
// so would be mistaken for them
const RESERVED_STAFF_NAMES = new Set(['admin', 'preorder', ...Object.values(SYSTEM_ACTORS)])

/** `STAFF_TOKENS` read entry by entry; empty entries (a trailing comma) are skipped. */
function parseStaffTokens(
  raw: string | null,
): Pick<AppConfig, 'staffTokens' | 'malformedStaffTokens'> {
  const staffTokens: StaffToken[] = []
  const malformedStaffTokens: MalformedStaffToken[] = []
  for (const [index, entry] of (raw ?? '').split(',').entries()) {
    const text = entry.trim()
    if (!text) continue
    const parts = text.split(':')
    const [name, token, group] = parts.map((part) => part.trim())
    const reason =
      parts.length !== 3
        ? 'expected name:token:group'
        : !STAFF_NAME.test(name)
          ? 'the name must be 1-40 letters, digits, ".", "_" or "-"'
          : RESERVED_STAFF_NAMES.has(name.toLowerCase())
            ? `the name "${name}" is reserved`
            : !token || /\s/.test(token)
              ? 'the token is empty or contains spaces'
              : !Object.hasOwn(STAFF_GROUPS, group)
                ? 'the group must be admin, preorder or admin+preorder'
                : null
    if (reason) malformedStaffTokens.push({ position: index + 1, reason })
    else staffTokens.push({ name, token, groups: STAFF_GROUPS[group] })
  }
  return { staffTokens, malformedStaffTokens }
}

const DEFAULT_SITE_URL = 'http://localhost:8888'
const DEFAULT_OUTBOUND_TIMEOUT_MS = 5000
/** Netlify stops a background function after 15 minutes; a delivery invocation starts batches for 12. */
export const DEFAULT_DELIVERY_BUDGET_MS = 12 * 60 * 1000
const DEFAULT_RETENTION_DAYS = 365
const DEFAULT_EXPIRY_DAYS = 180
const DEFAULT_ATTRIBUTION_DAYS = 7
const DEFAULT_STATUS_EMAIL_DELAY_MS = 10_000

type Env = Record<string, string | undefined>

function optional(env: Env, name: string): string | null {
  const value = env[name]?.trim()
  return value ? value : null
}

function positiveInteger(env: Env, name: string, fallback: number, unit = 'milliseconds'): number {
  const raw = optional(env, name)
  if (raw === null) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value <= 0) {
    throw new InvalidConfigError(`${name} must be a positive integer (${unit}), got "${raw}"`)
  }
  return value
}

const TRUE_WORDS = new Set(['true', 'on', '1'])
const FALSE_WORDS = new Set(['false', 'off', '0'])

/**
 * A boolean variable, the one way every boolean is read: `true`, `on`, `1` or `false`, `off`,
 * `0`, in any case; unset or empty is `fallback`; anything else is an InvalidConfigError naming
 * the variable.
 */
function booleanVariable(env: Env, name: string, fallback: boolean): boolean {
  const raw = optional(env, name)
  if (raw === null) return fallback
  const word = raw.toLowerCase()
  if (TRUE_WORDS.has(word)) return true
  if (FALSE_WORDS.has(word)) return false
  throw new InvalidConfigError(
    `${name} must be true, false, on, off, 1 or 0 (in any case), got "${raw}"`,
  )
}

function nonNegativeInteger(
  env: Env,
  name: string,
  fallback: number,
  unit = 'milliseconds',
): number {
  const raw = optional(env, name)
  if (raw === null) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) {
    throw new InvalidConfigError(`${name} must be an integer of 0 or more (${unit}), got "${raw}"`)
  }
  return value
}

/** `QUIET_HOURS`: two JST hours (`21-8`) or `off`; unset or empty is DEFAULT_QUIET_HOURS. */
function quietHoursVariable(env: Env, name: string): QuietHours | null {
  const raw = optional(env, name) ?? DEFAULT_QUIET_HOURS
  const quiet = parseQuietHours(raw)
  if (quiet === 'invalid') {
    throw new InvalidConfigError(
      `${name} must be off or two hours of Japan time such as 21-8 (quiet from 21:00 until 8:00), got "${raw}"`,
    )
  }
  return quiet
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
function publicBaseUrl(env: Env, deploy: DeployAddress = {}): string {
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
    ...parseStaffTokens(optional(env, 'STAFF_TOKENS')),
    adminAllowedOrigins: (optional(env, 'ADMIN_ALLOWED_ORIGINS') ?? '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    siteUrl: publicBaseUrl(env, deploy),
    storefrontUrl: (optional(env, 'STOREFRONT_URL') ?? publicBaseUrl(env, deploy)).replace(
      /\/+$/,
      '',
    ),
    resendApiKey: optional(env, 'RESEND_API_KEY'),
    resendFromEmail: optional(env, 'RESEND_FROM_EMAIL'),
    teamchatReservationWebhookUrl: optional(env, 'TEAMCHAT_RESERVATION_WEBHOOK_URL'),
    teamchatRestockWebhookUrl: optional(env, 'TEAMCHAT_RESTOCK_WEBHOOK_URL'),
    communitychatWebhookUrl: optional(env, 'COMMUNITYCHAT_WEBHOOK_URL'),
    unsubscribeSecret: optional(env, 'UNSUBSCRIBE_SECRET'),
    outboundTimeoutMs: positiveInteger(env, 'OUTBOUND_TIMEOUT_MS', DEFAULT_OUTBOUND_TIMEOUT_MS),
    deliveryBudgetMs: positiveInteger(env, 'DELIVERY_BUDGET_MS', DEFAULT_DELIVERY_BUDGET_MS),
    reservationLinkSecret: optional(env, 'RESERVATION_LINK_SECRET'),
    reservationStatusEmails: booleanVariable(env, 'RESERVATION_STATUS_EMAILS', true),
    reservationStatusEmailDelayMs: nonNegativeInteger(
      env,
      'RESERVATION_STATUS_EMAIL_DELAY_MS',
      DEFAULT_STATUS_EMAIL_DELAY_MS,
    ),
    shopName: optional(env, 'SHOP_NAME'),
    shopAddress: optional(env, 'SHOP_ADDRESS'),
    shopContact: optional(env, 'SHOP_CONTACT'),
    resendWebhookSecret: optional(env, 'RESEND_WEBHOOK_SECRET'),
    notifyDoubleOptIn: booleanVariable(env, 'NOTIFY_DOUBLE_OPT_IN', false),
    retentionDays: positiveInteger(env, 'RETENTION_DAYS', DEFAULT_RETENTION_DAYS, 'days'),
    deployContext: (deploy.context || optional(env, 'CONTEXT') || 'dev').toLowerCase(),
    stockWebhookSecret: optional(env, 'STOCK_WEBHOOK_SECRET'),
    stockFeedUrl: optional(env, 'STOCK_FEED_URL'),
    quietHours: quietHoursVariable(env, 'QUIET_HOURS'),
    signupExpiryDays: nonNegativeInteger(env, 'SIGNUP_EXPIRY_DAYS', DEFAULT_EXPIRY_DAYS, 'days'),
    orderWebhookSecret: optional(env, 'ORDER_WEBHOOK_SECRET'),
    attributionDays: positiveInteger(env, 'ATTRIBUTION_DAYS', DEFAULT_ATTRIBUTION_DAYS, 'days'),
    emailDelivery: emailDeliveryOf(env),
    line: lineSettingsOf(env),
  }
}

/**
 * Local development only: a Blobs server of ours that functions use instead of the platform's
 * (`npm start` sets it to its atomic local server; see platform/atomicBlobsServer.ts). JSON
 * `{"edgeURL": "http://127.0.0.1:…", "siteID": "…", "token": "…"}`. Never set it on Netlify.
 */
export const LOCAL_BLOBS_SERVER_VARIABLE = 'LOCAL_BLOBS_SERVER'

/** Where storage finds its Blobs (storage/blobStore.ts); read at each store opening. */
export interface BlobsEnvironment {
  /** `LOCAL_BLOBS_SERVER` as set (JSON), or null on the platform. Default: unset. */
  localServer: string | null
  /** `CONTEXT`: the deploy context when a request names none. Default: unset (`dev`). */
  deployContext: string | null
  /**
   * What names the Blobs environment reached (hashed into cache scopes, never decoded): the local
   * server, else the platform's Blobs context. Default: `''`.
   */
  identity: string
}

/** The Blobs environment of this process. */
export function blobsEnvironment(env: Env = process.env): BlobsEnvironment {
  return {
    localServer: env[LOCAL_BLOBS_SERVER_VARIABLE] || null,
    deployContext: env.CONTEXT || null,
    identity:
      env[LOCAL_BLOBS_SERVER_VARIABLE] ??
      (globalThis as { netlifyBlobsContext?: string }).netlifyBlobsContext ??
      env.NETLIFY_BLOBS_CONTEXT ??
      '',
  }
}
