import { formatJst, formatReleaseDate } from '../notifiers/jstTime.js'
import type { EmailContent } from '../notifiers/resendMailer.js'
import { joinMrkdwn, mrkdwn, type SlackMrkdwn } from '../notifiers/slackText.js'
import { slackCustomerAddress, slackCustomerText, unlinkedText } from './customerText.js'
import type { CatalogueProduct } from '../productCatalogue.js'
import type { Reservation } from '../storage/records.js'

/** What the reservation messages are made from. */
export interface ReservationMessageInput {
  reservation: Reservation
  product: CatalogueProduct
  /** Public product page (D1), shown as a bare URL (§6 rule 3). */
  productUrl: string
  /** Signed link to the reservation's manage page; null when links cannot be signed. */
  manageUrl?: string | null
}

/** The lines every reservation e-mail shares: id, product, quantity, release date. */
export function reservationFacts(reservation: Reservation, product: CatalogueProduct): string[] {
  return [
    `予約番号: ${reservation.id}`,
    `商品: ${product.title}`,
    `数量: ${reservation.quantity ?? 1}`,
    ...(product.releaseDate ? [`発売予定日: ${formatReleaseDate(product.releaseDate)}`] : []),
  ]
}

/** The manage-link lines, or how to reach the shop when there is no link. */
export function manageLines(manageUrl: string | null | undefined): string[] {
  if (!manageUrl)
    return ['キャンセルをご希望の場合は、予約番号を添えてショップまでご連絡ください。']
  return ['ご予約の確認・キャンセルは次のページから行えます:', manageUrl]
}

/** Team chat, reservation channel (§6): every detail the shop needs to follow up. */
export function reservationTeamChatMessage(input: ReservationMessageInput): {
  slackText: SlackMrkdwn
} {
  const { reservation, product, productUrl } = input
  return {
    slackText: joinMrkdwn([
      mrkdwn`*新しい予約が入りました*`,
      mrkdwn`商品: ${product.title}（${product.slug}）`,
      joinMrkdwn([mrkdwn`お名前: `, slackCustomerText(reservation.name)], ''),
      reservation.channel === 'line'
        ? mrkdwn`連絡先: LINE`
        : joinMrkdwn([mrkdwn`メール: `, slackCustomerAddress(reservation.email)], ''),
      mrkdwn`予約ID: ${reservation.id}`,
      mrkdwn`数量: ${String(reservation.quantity ?? 1)}`,
      mrkdwn`受付日時: ${formatJst(reservation.createdAt)}`,
      mrkdwn`商品ページ: ${productUrl}`,
    ]),
  }
}

/** Auto-reply to the customer (§6): confirms what was received; the shop follows up later. */
export function reservationConfirmationEmail(input: ReservationMessageInput): EmailContent {
  const { reservation, product, productUrl } = input
  return {
    subject: `【ご予約受付】${product.title}`,
    text: [
      // why: the name is the customer's own text; it must never become a link in the mail
      `${unlinkedText(reservation.name)} 様`,
      '',
      `このたびは「${product.title}」をご予約いただき、誠にありがとうございます。`,
      '以下の内容でご予約を受け付けました。',
      '',
      ...reservationFacts(reservation, product),
      `受付日時: ${formatJst(reservation.createdAt)}`,
      `商品ページ: ${productUrl}`,
      '',
      '内容を確認のうえ、改めてご連絡いたします。今しばらくお待ちください。',
      ...manageLines(input.manageUrl),
      'お問い合わせの際は、上記の予約番号をお知らせください。',
      '',
      'このメールにお心当たりのない場合は、お手数ですが破棄してください。',
    ].join('\n'),
  }
}
