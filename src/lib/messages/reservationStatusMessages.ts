import { formatJst } from '../notifiers/jstTime.js'
import type { EmailContent } from '../notifiers/resendMailer.js'
import { joinMrkdwn, mrkdwn, type SlackMrkdwn } from '../notifiers/slackText.js'
import type { CatalogueProduct } from '../productCatalogue.js'
import type { Reservation } from '../storage/records.js'
import { manageLines, reservationFacts } from './reservationMessages.js'

/** The statuses whose arrival is e-mailed to the customer. */
export type MailedStatus = 'confirmed' | 'fulfilled' | 'cancelled'

export function isMailedStatus(status: string): status is MailedStatus {
  return status === 'confirmed' || status === 'fulfilled' || status === 'cancelled'
}

/** What a status e-mail is made from. */
export interface StatusEmailInput {
  reservation: Reservation
  product: CatalogueProduct
  productUrl: string
  /** The status the reservation just reached. */
  status: MailedStatus
  /** The staff's note, only when they ticked "share note" (else null). */
  sharedNote: string | null
  /** Signed link to the manage page (confirmed only; null when links cannot be signed). */
  manageUrl: string | null
  /** The customer cancelled it themselves on the manage page: the e-mail is their receipt. */
  byCustomer?: boolean
}

const TEXTS: Record<MailedStatus, { subject: string; lead: string[] }> = {
  confirmed: {
    subject: '【ご予約確定】',
    lead: ['ご予約が確定しましたのでお知らせいたします。', '発売までいましばらくお待ちください。'],
  },
  fulfilled: {
    subject: '【商品のご用意ができました】',
    lead: ['ご予約の商品のご用意ができましたのでお知らせいたします。'],
  },
  cancelled: {
    subject: '【ご予約キャンセル】',
    lead: [
      'ご予約はキャンセルとなりましたのでお知らせいたします。',
      'ご不明な点がございましたら、予約番号を添えてショップまでお問い合わせください。',
    ],
  },
}

/** The receipt of a cancel the customer made on the manage page. */
const CUSTOMER_CANCEL = {
  subject: '【ご予約キャンセル受付】',
  lead: [
    'お客様のお手続きにより、ご予約のキャンセルを承りました。',
    'またのご利用をお待ちしております。',
  ],
}

/** The e-mail sent when staff move a reservation to `status`, or the customer cancels (Japanese). */
export function reservationStatusEmail(input: StatusEmailInput): EmailContent {
  const { reservation, product, productUrl, status, sharedNote } = input
  const texts = input.byCustomer && status === 'cancelled' ? CUSTOMER_CANCEL : TEXTS[status]
  return {
    subject: `${texts.subject}${product.title}`,
    text: [
      `${reservation.name} 様`,
      '',
      `「${product.title}」のご予約について、`,
      ...texts.lead,
      '',
      ...reservationFacts(reservation, product),
      `受付日時: ${formatJst(reservation.createdAt)}`,
      `商品ページ: ${productUrl}`,
      ...(sharedNote ? ['', 'ショップからのお知らせ:', sharedNote] : []),
      ...(status === 'confirmed' ? ['', ...manageLines(input.manageUrl)] : []),
      '',
      'お問い合わせの際は、上記の予約番号をお知らせください。',
      'このメールにお心当たりのない場合は、お手数ですが破棄してください。',
    ].join('\n'),
  }
}

/** Team chat, reservation channel: the customer cancelled on the manage page. */
export function selfCancelTeamChatMessage(input: {
  reservation: Reservation
  product: CatalogueProduct
}): { slackText: SlackMrkdwn } {
  const { reservation, product } = input
  return {
    slackText: joinMrkdwn([
      mrkdwn`*お客様が予約をキャンセルしました*`,
      mrkdwn`商品: ${product.title}（${product.slug}）`,
      mrkdwn`予約ID: ${reservation.id}`,
      mrkdwn`数量: ${String(reservation.quantity ?? 1)}`,
      mrkdwn`キャンセル日時: ${formatJst(reservation.statusChangedAt ?? '')}`,
    ]),
  }
}
