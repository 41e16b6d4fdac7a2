import { formatJst } from '../notifiers/jstTime.js'
import type { EmailContent } from '../notifiers/resendMailer.js'
import { joinMrkdwn, mrkdwn, type SlackMrkdwn } from '../notifiers/slackText.js'
import { slackCustomerAddress } from './customerText.js'
import type { CatalogueProduct } from '../productCatalogue.js'
import type { NotifySubscription } from '../storage/records.js'

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

/** Auto-reply to the subscriber (§6): confirms the signup and what happens next. */
export function signupConfirmationEmail(input: SignupMessageInput): EmailContent {
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
      `商品ページ: ${productUrl}`,
      '',
      '再入荷のお知らせメールには、配信を停止するためのリンクが記載されています。',
      'このメールにお心当たりのない場合は、お手数ですが破棄してください。',
    ].join('\n'),
  }
}
