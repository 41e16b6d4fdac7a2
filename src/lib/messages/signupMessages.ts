import { formatJst } from '../notifiers/jstTime.js'
import type { EmailContent } from '../notifiers/resendMailer.js'
import { joinMrkdwn, mrkdwn, type SlackMrkdwn } from '../notifiers/slackText.js'
import { slackCustomerAddress } from './customerText.js'
import type { CatalogueProduct } from '../productCatalogue.js'
import type { NotifySubscription } from '../storage/records.js'
import { placeText, STATUS_PAGE_TITLE, type QueuePlace } from './queuePlaceText.js'

/** What the restock-signup messages are made from. */
export interface SignupMessageInput {
  subscription: NotifySubscription
  product: CatalogueProduct
  /** Public product page (D1), shown as a bare URL (§6 rule 3). */
  productUrl: string
}

/** Team chat, restock channel (§6): product, e-mail, registration time, product URL. */
export function signupTeamChatMessage(input: SignupMessageInput): { slackText: SlackMrkdwn } {
  const { subscription, product, productUrl } = input
  return {
    slackText: joinMrkdwn([
      mrkdwn`*再入荷通知の登録がありました*`,
      mrkdwn`商品: ${product.title}（${product.slug}）`,
      subscription.channel === 'line'
        ? mrkdwn`受け取り: LINE`
        : joinMrkdwn([mrkdwn`メール: `, slackCustomerAddress(subscription.email)], ''),
      mrkdwn`登録日時: ${formatJst(subscription.createdAt)}`,
      mrkdwn`登録ID: ${subscription.id}`,
      mrkdwn`${productUrl}`,
    ]),
  }
}

/**
 * Community chat (§6): product name and URL only. Takes no subscription on purpose, so that no
 * personal data can reach the public channel (D10).
 */
export function signupCommunityChatMessage(input: {
  product: CatalogueProduct
  productUrl: string
}): { discordContent: string } {
  return {
    discordContent: `「${escapeDiscordMarkdown(input.product.title)}」に再入荷通知の登録がありました。\n${input.productUrl}`,
  }
}

/** Text shown as written in Discord: its markdown characters are escaped. */
function escapeDiscordMarkdown(text: string): string {
  return text.replace(/[\\*_~`|>#[\]()]/g, '\\$&')
}

/**
 * Auto-reply to the subscriber (§6): confirms the signup and what happens next, with its place
 * in the queue and the link of its 「入荷待ちの状況」 page (subscriptions/queueStatus.ts).
 */
export function signupConfirmationEmail(
  input: SignupMessageInput & {
    /** Its place when the e-mail is made; null: none (not waiting). */
    queue: QueuePlace | null
    /** The signed link of its status page; null when none can be made (no secret). */
    statusUrl: string | null
  },
): EmailContent {
  const { subscription, product, productUrl } = input
  return {
    subject: `【再入荷通知】${product.title} の通知登録を受け付けました`,
    text: [
      '再入荷通知にご登録いただき、ありがとうございます。',
      '',
      `「${product.title}」が再入荷しましたら、このメールアドレス宛てにお知らせいたします。`,
      '',
      `商品: ${product.title}`,
      `登録日時: ${formatJst(subscription.createdAt)}`,
      ...(input.queue ? [`入荷待ちの順番: ${placeText(input.queue)}`] : []),
      `商品ページ: ${productUrl}`,
      ...(input.statusUrl
        ? [
            '',
            '入荷待ちの順番の確認や配信の停止は、次のページからいつでもできます。',
            `${STATUS_PAGE_TITLE}: ${input.statusUrl}`,
          ]
        : []),
      '',
      '再入荷のお知らせメールには、配信を停止するためのリンクが記載されています。',
      'このメールにお心当たりのない場合は、お手数ですが破棄してください。',
    ].join('\n'),
  }
}
