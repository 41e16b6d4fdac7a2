import type { Logger } from '../log.js'
import type { DeliveryResult } from './delivery.js'
import { postJson, requirePositiveTimeout, skipped, webhookTarget } from './outboundRequest.js'
import { DISCORD_CONTENT_LIMIT, truncateText } from './textLimits.js'

export interface DiscordNotifierOptions {
  /** Name in logs and results. Default: `communitychat`. */
  destination?: string
  /** The webhook URL (a secret), or null when its variable is unset (then every send is skipped). */
  webhookUrl: string | null
  /** Name of the variable holding the URL. Default: `COMMUNITYCHAT_WEBHOOK_URL`. */
  variable?: string
  /** Timeout of each call in milliseconds (config.outboundTimeoutMs). */
  timeoutMs: number
  log: Logger
}

/**
 * The community chat (Discord webhook, D10). It is public: callers must never pass a name or an
 * e-mail address, only product data.
 */
export interface DiscordNotifier {
  readonly destination: string
  readonly enabled: boolean
  /** Posts `content`; never throws, failures are logged and returned. */
  send(content: string): Promise<DeliveryResult>
}

/** Discord's message flag SUPPRESS_EMBEDS (1 << 2): no link preview cards. */
const SUPPRESS_EMBEDS = 4

/**
 * The webhook payload: content ≤ 2000 characters, nobody can be pinged (`@everyone` stays text)
 * and no link preview is shown.
 */
export function discordPayload(content: string) {
  return {
    content: truncateText(content, DISCORD_CONTENT_LIMIT),
    allowed_mentions: { parse: [] },
    flags: SUPPRESS_EMBEDS,
  }
}

export function createDiscordNotifier(options: DiscordNotifierOptions): DiscordNotifier {
  const { timeoutMs, log } = options
  const destination = options.destination ?? 'communitychat'
  const variable = options.variable ?? 'COMMUNITYCHAT_WEBHOOK_URL'
  requirePositiveTimeout(timeoutMs, 'createDiscordNotifier')
  const target = webhookTarget(options.webhookUrl, variable, destination, log)
  return {
    destination,
    enabled: 'url' in target,
    async send(content) {
      if (!('url' in target)) return skipped(destination, target.disabled, log)
      return postJson({
        destination,
        url: target.url,
        body: discordPayload(content),
        timeoutMs,
        log,
      })
    },
  }
}
