import { escapeHtml } from '../htmlEscape.js'
import { formatJst } from '../notifiers/jstTime.js'
import type { SenderIdentity } from '../storage/deliveryJobStore.js'
import type { RenderedEmail } from './restockMessages.js'
import { senderLines } from './senderFooter.js'

/**
 * The e-mail a sign-up that has waited SIGNUP_EXPIRY_DAYS gets once (subscriptions/signupExpiry.ts):
 * whether the shopper still wants the restock e-mail, with the one keep link, when the sign-up
 * ends unanswered, and the unsubscribe link and sender block every restock e-mail carries.
 */

/** Its subject, as staff and shoppers read it. */
export const KEEP_SUBJECT = '引き続き入荷のお知らせを希望されますか'

export interface KeepEmailInput {
  productTitle: string
  productUrl: string
  /** When the shopper signed up (ISO). */
  signedUpAt: string
  /** The signed keep link (compliance/keepToken.ts). */
  keepUrl: string
  /** When the sign-up ends unanswered (ISO). */
  endsAt: string
  /** The signed unsubscribe link (D9). */
  unsubscribeUrl: string
  sender: SenderIdentity
}

function linkHtml(url: string): string {
  const safe = escapeHtml(url)
  return `<a href="${safe}">${safe}</a>`
}

export function renderKeepEmail(input: KeepEmailInput): RenderedEmail {
  const ends = formatJst(input.endsAt)
  const lead = [
    `「${input.productTitle}」の再入荷のお知らせにご登録いただいてから、しばらく経ちました（ご登録: ${formatJst(input.signedUpAt)}）。`,
    '引き続きお知らせを希望される場合は、次のリンクを開いて「引き続き希望する」を押してください。',
  ]
  const after = [
    `${ends} までにお返事がない場合、このご登録は終了し、この商品のお知らせは今後お送りしません（必要になりましたら、商品ページからいつでも登録し直せます）。`,
  ]
  const text = [
    ...lead,
    `引き続き希望する: ${input.keepUrl}`,
    '',
    ...after,
    '',
    '──────────────────────',
    `商品ページ: ${input.productUrl}`,
    `配信停止: ${input.unsubscribeUrl}`,
    '',
    ...senderLines(input.sender),
  ].join('\n')
  const html = [
    '<!doctype html>',
    '<html lang="ja"><body style="font-family: sans-serif; line-height: 1.7; color: #222;">',
    ...lead.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p>引き続き希望する: ${linkHtml(input.keepUrl)}</p>`,
    ...after.map((line) => `<p>${escapeHtml(line)}</p>`),
    '<hr style="border: none; border-top: 1px solid #ccc; margin: 24px 0;">',
    '<div style="font-size: 13px; color: #555;">',
    `<p>商品ページ: ${linkHtml(input.productUrl)}</p>`,
    `<p>配信停止: ${linkHtml(input.unsubscribeUrl)}</p>`,
    `<p>${senderLines(input.sender).map(escapeHtml).join('<br>\n')}</p>`,
    '</div>',
    '</body></html>',
  ].join('\n')
  return { subject: KEEP_SUBJECT, text, html }
}
