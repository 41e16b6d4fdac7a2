import type { SenderIdentity } from '../storage/deliveryJobStore.js'
import { escapeHtml } from '../htmlEscape.js'
import { senderLines } from './senderFooter.js'

/** What a restock e-mail says; every text is the shop owner's or ours, never markup from users. */
export interface RestockEmailInput {
  /** Subject line as the admin typed it (§4.8 `emailTitle`). */
  emailTitle: string
  /** Body text as the admin typed it (§4.8 `emailBody`); line breaks are kept. */
  emailBody: string
  /** Product name shown in the footer (the catalogue title, else the slug). */
  productTitle: string
  /** Public product page (D1). */
  productUrl: string
  /** Signed one-recipient unsubscribe link (D9). */
  unsubscribeUrl: string
  /** Who sends it (特定電子メール法 Art. 4; docs/compliance.md). */
  sender: SenderIdentity
  /** The unit held for this recipient (お取り置き). */
  hold?: HoldOffer
}

/** A unit held for one recipient (お取り置き) as their message offers it. */
export interface HoldOffer {
  /** The signed link to `/reservation/hold`. */
  url: string
  /** How long it is held (`holdHours`). */
  hours: number
  /** When the hold ends, as JST text. */
  endsAt: string
}

/** The link text of a hold: 「24時間お取り置き」. */
export function holdLinkText(hours: number): string {
  return `${hours}時間お取り置き`
}

function holdLines(hold: HoldOffer): string[] {
  return [
    `【${holdLinkText(hold.hours)}】`,
    `この商品を1点、${hold.endsAt} までお取り置きしています。`,
    'ご予約は下のリンクからお名前を入力するだけで完了します。',
    `${holdLinkText(hold.hours)}: ${hold.url}`,
  ]
}

export interface RenderedEmail {
  subject: string
  text: string
  html: string
}

const RULE = '──────────────────────'

function footerLines(input: RestockEmailInput): string[] {
  return [
    RULE,
    `商品ページ: ${input.productUrl}`,
    '',
    `このメールは「${input.productTitle}」の再入荷通知にご登録いただいた方へお送りしています。`,
    'この商品の再入荷通知が今後不要な場合は、以下のリンクから配信を停止できます。',
    `配信停止: ${input.unsubscribeUrl}`,
    '',
    ...senderLines(input.sender),
  ]
}

function paragraphHtml(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>\n')
}

function linkHtml(url: string): string {
  const safe = escapeHtml(url)
  return `<a href="${safe}">${safe}</a>`
}

/** The restock e-mail (D9, D10): the admin's subject and body plus a footer with the product page and the unsubscribe link. */
export function renderRestockEmail(input: RestockEmailInput): RenderedEmail {
  const held = input.hold ? [...holdLines(input.hold), ''] : []
  const text = [input.emailBody.trimEnd(), '', ...held, ...footerLines(input)].join('\n')
  const html = [
    '<!doctype html>',
    '<html lang="ja"><body style="font-family: sans-serif; line-height: 1.7; color: #222;">',
    `<div>${paragraphHtml(input.emailBody.trimEnd())}</div>`,
    ...(input.hold ? [holdHtml(input.hold)] : []),
    '<hr style="border: none; border-top: 1px solid #ccc; margin: 24px 0;">',
    '<div style="font-size: 13px; color: #555;">',
    `<p>商品ページ: ${linkHtml(input.productUrl)}</p>`,
    `<p>このメールは「${escapeHtml(input.productTitle)}」の再入荷通知にご登録いただいた方へお送りしています。<br>`,
    'この商品の再入荷通知が今後不要な場合は、以下のリンクから配信を停止できます。</p>',
    `<p>配信停止: ${linkHtml(input.unsubscribeUrl)}</p>`,
    `<p>${senderLines(input.sender).map(paragraphHtml).join('<br>\n')}</p>`,
    '</div>',
    '</body></html>',
  ].join('\n')
  return { subject: input.emailTitle, text, html }
}

function holdHtml(hold: HoldOffer): string {
  return [
    '<div style="margin: 24px 0; padding: 12px 16px; border: 1px solid #1a4fb4;">',
    `<p>この商品を1点、${escapeHtml(hold.endsAt)} までお取り置きしています。<br>`,
    'ご予約は下のリンクからお名前を入力するだけで完了します。</p>',
    `<p><a href="${escapeHtml(hold.url)}">${escapeHtml(holdLinkText(hold.hours))}</a></p>`,
    '</div>',
  ].join('\n')
}
