import type { AppConfig } from '../config.js'
import type { Logger } from '../log.js'
import { createDiscordNotifier, type DiscordNotifier } from './discordNotifier.js'
import { createLinePusher, type LinePusher } from './linePusher.js'
import { createResendMailer, type Mailer } from './resendMailer.js'
import { createSlackNotifier, type SlackNotifier } from './slackNotifier.js'

/** Every outbound destination of §6, configured from the environment (D10). */
export interface ShopNotifiers {
  /** Team chat, reservation channel (`TEAMCHAT_RESERVATION_WEBHOOK_URL`). */
  teamchatReservation: SlackNotifier
  /** Team chat, restock channel (`TEAMCHAT_RESTOCK_WEBHOOK_URL`). */
  teamchatRestock: SlackNotifier
  /** Community chat (`COMMUNITYCHAT_WEBHOOK_URL`): product data only, never personal data. */
  communitychat: DiscordNotifier
  /** Customer e-mail (`RESEND_API_KEY` + `RESEND_FROM_EMAIL`; else logged). */
  mailer: Mailer
  /** LINE pushes to shoppers (the four LINE variables); null when LINE is not configured. */
  line: Pick<LinePusher, 'push'> | null
}

/** Creates the notifiers for one request; every option is checked here, once. */
export function createShopNotifiers(config: AppConfig, log: Logger): ShopNotifiers {
  const timeoutMs = config.outboundTimeoutMs
  return {
    teamchatReservation: createSlackNotifier({
      destination: 'teamchat-reservation',
      webhookUrl: config.teamchatReservationWebhookUrl,
      variable: 'TEAMCHAT_RESERVATION_WEBHOOK_URL',
      timeoutMs,
      log,
    }),
    teamchatRestock: createSlackNotifier({
      destination: 'teamchat-restock',
      webhookUrl: config.teamchatRestockWebhookUrl,
      variable: 'TEAMCHAT_RESTOCK_WEBHOOK_URL',
      timeoutMs,
      log,
    }),
    communitychat: createDiscordNotifier({
      webhookUrl: config.communitychatWebhookUrl,
      timeoutMs,
      log,
    }),
    mailer: createResendMailer({
      apiKey: config.resendApiKey,
      from: config.resendFromEmail,
      timeoutMs,
      log,
    }),
    line: config.line ? createLinePusher({ settings: config.line, timeoutMs, log }) : null,
  }
}
