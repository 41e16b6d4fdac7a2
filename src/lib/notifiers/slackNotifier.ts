import type { Logger } from '../log.js'
import type { DeliveryResult } from './delivery.js'
import { postJson, requirePositiveTimeout, skipped, webhookTarget } from './outboundRequest.js'
import type { SlackMrkdwn } from './slackText.js'
import { SLACK_SECTION_TEXT_LIMIT, truncateText } from './textLimits.js'

export interface SlackNotifierOptions {
  /** Name in logs and results, e.g. `teamchat-reservation`. */
  destination: string
  /** The incoming-webhook URL (a secret), or null when its variable is unset (then every send is skipped). */
  webhookUrl: string | null
  /** Name of the variable holding the URL, for the skip and misconfiguration logs. */
  variable: string
  /** Timeout of each call in milliseconds (config.outboundTimeoutMs). */
  timeoutMs: number
  log: Logger
}

/** One Slack channel reached through an incoming webhook (team chat, D10). */
export interface SlackNotifier {
  readonly destination: string
  /** Whether sends go anywhere (the variable is set to a usable URL). */
  readonly enabled: boolean
  /** Posts the message; never throws, failures are logged and returned. */
  send(text: SlackMrkdwn): Promise<DeliveryResult>
}

/** The webhook payload: one section block (≤ 3000 characters) plus the same text as fallback. */
export function slackPayload(text: SlackMrkdwn) {
  const limited = truncateText(text, SLACK_SECTION_TEXT_LIMIT)
  return {
    text: limited,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: limited } }],
    // why: no preview of any link: a message may repeat what a stranger typed
    unfurl_links: false,
    unfurl_media: false,
  }
}

export function createSlackNotifier(options: SlackNotifierOptions): SlackNotifier {
  const { destination, timeoutMs, log } = options
  requirePositiveTimeout(timeoutMs, 'createSlackNotifier')
  const target = webhookTarget(options.webhookUrl, options.variable, destination, log)
  return {
    destination,
    enabled: 'url' in target,
    async send(text) {
      if (!('url' in target)) return skipped(destination, target.disabled, log)
      return postJson({ destination, url: target.url, body: slackPayload(text), timeoutMs, log })
    },
  }
}
