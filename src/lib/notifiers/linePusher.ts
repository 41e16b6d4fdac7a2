import { createHash } from 'node:crypto'
import type { messagingApi } from '@line/bot-sdk'
import type { LineSettings } from '../config.js'
import type { Logger } from '../log.js'
import { requirePositiveTimeout } from './outboundRequest.js'

/**
 * LINE's Messaging API through the official SDK (`@line/bot-sdk`, `MessagingApiClient` with
 * `baseURL` = `LINE_API_BASE_URL`): pushes with `X-Line-Retry-Key`, and the month's quota. Never
 * throws. A push LINE answers 409 for its retry key was accepted before (a retry of a push whose
 * answer was lost): it counts as sent and LINE does not send it again.
 */

/** What one push achieved. */
export type LinePushResult =
  { outcome: 'sent'; repeated: boolean } | { outcome: 'failed'; error: string; retryable: boolean }

/** The month's messages: the plan's limit (null: unlimited) and what was used. */
export interface LineQuota {
  limit: number | null
  usage: number
}

/** The quota as answers show it: with what is left (null: no limit). */
export function quotaAnswer(quota: LineQuota): LineQuota & { remaining: number | null } {
  return {
    ...quota,
    remaining: quota.limit === null ? null : Math.max(0, quota.limit - quota.usage),
  }
}

/**
 * The `X-Line-Retry-Key` of the push named `name` (what it is and to whom): a UUID, always the
 * same for the same name, so a push sent again is never delivered twice.
 */
export function retryKeyOf(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex')
  // why: LINE takes a UUID; version 5 (name-based, SHA) and the RFC 4122 variant bits
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

export interface LinePusher {
  push(to: string, messages: messagingApi.Message[], retryKey: string): Promise<LinePushResult>
  /** This month's quota, or null when LINE did not answer. */
  quota(): Promise<LineQuota | null>
}

export interface LinePusherOptions {
  settings: Pick<LineSettings, 'apiBaseUrl' | 'messagingAccessToken'>
  /** Timeout of each call in milliseconds (config.outboundTimeoutMs). */
  timeoutMs: number
  log: Logger
}

class CallTimeout extends Error {
  override name = 'CallTimeout'
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CallTimeout(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([work, limit]).finally(() => clearTimeout(timer))
}

export function createLinePusher(options: LinePusherOptions): LinePusher {
  const { settings, timeoutMs, log } = options
  requirePositiveTimeout(timeoutMs, 'createLinePusher')
  let client: Promise<messagingApi.MessagingApiClient> | null = null
  // why: loading the SDK is part of a cold start; only a request that really pushes pays for it
  const api = () =>
    (client ??= import('@line/bot-sdk').then(
      ({ messagingApi }) =>
        new messagingApi.MessagingApiClient({
          channelAccessToken: settings.messagingAccessToken,
          baseURL: settings.apiBaseUrl,
        }),
    ))

  return {
    async push(to, messages, retryKey) {
      try {
        await within(
          (await api()).pushMessage({ to, messages, notificationDisabled: false }, retryKey),
          timeoutMs,
        )
        return { outcome: 'sent', repeated: false }
      } catch (error) {
        const status = (error as { status?: unknown }).status
        if (status === 409) return { outcome: 'sent', repeated: true }
        const reason =
          error instanceof CallTimeout
            ? 'timeout'
            : typeof status === 'number'
              ? `LINE answered HTTP ${status}`
              : `LINE could not be reached (${error instanceof Error ? error.message : String(error)})`
        const retryable = typeof status !== 'number' || status === 429 || status >= 500
        // why: the recipient's LINE id is personal data and stays out of the log
        log.warn('line.push.failed', { error: reason, retryable })
        return { outcome: 'failed', error: reason, retryable }
      }
    },
    async quota() {
      try {
        const client = await api()
        const [plan, used] = await within(
          Promise.all([client.getMessageQuota(), client.getMessageQuotaConsumption()]),
          timeoutMs,
        )
        return {
          limit: plan.type === 'limited' && typeof plan.value === 'number' ? plan.value : null,
          usage: used.totalUsage,
        }
      } catch (error) {
        log.warn('line.quota.unavailable', {
          error: error instanceof Error ? error.message : String(error),
        })
        return null
      }
    },
  }
}
