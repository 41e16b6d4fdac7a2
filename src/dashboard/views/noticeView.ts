import { renderRestockEmail } from '../../lib/messages/restockMessages.js'
import { productUrl, targetKey, targetTitle } from '../../lib/productCatalogue.js'
import { sendableAt, type QuietHours } from '../../lib/quietHours.js'
import { ROUTES } from '../../lib/routes.js'
import { chooseAction, confirmAction } from '../dialogs.js'
import { el, field, replaceChildren, select } from '../elements.js'
import { productFilterOf, productOptions } from '../recordResources.js'
import {
  formatTime,
  lineQuotaText,
  lineQuotaWarning,
  notWaitingText,
  type LineQuotaText,
} from '../texts.js'
import { deliveryProgress } from './deliveryProgress.js'
import { noticeHistory } from './noticeHistory.js'
import type { ViewContext } from './viewContext.js'

/** §4.8 / D6 limits, in characters. */
const TITLE_MAX = 200
const BODY_MAX = 20000

/**
 * Send a restock notice: product (a product with variants: all of them, or one variant),
 * subject, body; a preview rendered by the very template the delivery uses
 * (src/lib/messages/restockMessages.ts, bundled in); the number of recipients before confirming
 * (inside the quiet hours: send now, or at their end); then the delivery's progress, and the
 * product's history below.
 */
export function noticeView(context: ViewContext): HTMLElement {
  let recipients: number | null = null
  /** The shop's quiet hours (`QUIET_HOURS`), as the stock list last answered them. */
  let quietHours: QuietHours | null = null
  /** The month's LINE messages, and the LINE sign-ups among the recipients. */
  let lineQuota: LineQuotaText | null = null
  let lineRecipients = 0
  const product = select([['', '商品を選んでください'], ...productOptions()], '', {
    required: true,
  })
  const title = el('input', {
    type: 'text',
    maxlength: TITLE_MAX,
    required: true,
    autocomplete: 'off',
  })
  const body = el('textarea', { rows: 8, maxlength: BODY_MAX, required: true })
  const recipientInfo = el('p', { class: 'recipients', 'aria-live': 'polite' }, [
    '商品を選ぶと送信対象の人数が表示されます。',
  ])
  const send = el('button', { type: 'submit', class: 'primary', disabled: true }, [
    '送信内容を確認',
  ])
  const previewArea = el('div', { class: 'preview' })
  const progressArea = el('div', { class: 'progress-area' })
  const history = noticeHistory(context, showProgress)

  const form = el('form', { class: 'notice-form', novalidate: true }, [
    field('商品', product),
    recipientInfo,
    field('件名', title),
    field('本文', body),
    send,
  ])

  function ready(): boolean {
    return Boolean(product.value && title.value.trim() && body.value.trim() && recipients)
  }

  function renderPreview(): void {
    send.disabled = !ready()
    if (!product.value || !title.value.trim() || !body.value.trim()) {
      return replaceChildren(previewArea, [
        el('p', { class: 'hint' }, ['商品・件名・本文を入力するとプレビューが表示されます。']),
      ])
    }
    const origin = window.location.origin
    const target = productFilterOf(product.value)
    const email = renderRestockEmail({
      emailTitle: title.value.trim(),
      emailBody: body.value,
      productTitle: targetTitle(target),
      productUrl: productUrl(target.productSlug, origin),
      unsubscribeUrl: `${origin}${ROUTES.notifyUnsubscribe.path}?token=（受信者ごとの署名付きリンク）`,
      // why: the server fills in the shop's configured sender details when it sends
      sender: {
        name: '（ショップ名）',
        address: '（所在地）',
        contact: '（お問い合わせ先）',
        missing: [],
      },
    })
    const frame = el('iframe', {
      sandbox: '',
      title: 'メール（HTML 版）のプレビュー',
      class: 'preview-frame',
    })
    frame.srcdoc = email.html
    replaceChildren(previewArea, [
      el('p', {}, [el('strong', {}, ['件名: ']), email.subject]),
      frame,
      el('details', {}, [
        el('summary', {}, ['テキスト版']),
        el('pre', { class: 'preview-text' }, [email.text]),
      ]),
      el('p', { class: 'hint' }, [
        '配信停止リンクは受信者ごとに異なります。リンク先はサイトの設定で決まるショップの URL になります。',
      ]),
    ])
  }

  async function loadRecipients(): Promise<void> {
    recipients = null
    history.show(product.value)
    if (!product.value) {
      recipientInfo.textContent = '商品を選ぶと送信対象の人数が表示されます。'
      return renderPreview()
    }
    recipientInfo.textContent = '送信対象を数えています…'
    recipientInfo.setAttribute('aria-busy', 'true')
    const asked = product.value
    // why: the stock list counts who is waiting by the rule the send itself applies
    const answer = await context.attempt(() => context.api.post('adminStockList', {}))
    if (asked !== product.value) return
    // why: a whole product with variants counts every variant's line
    const rows = (answer?.stock ?? []).filter(
      (line) => targetKey(line) === asked || (!asked.includes('/') && line.productSlug === asked),
    )
    recipients =
      answer && rows.length > 0 ? rows.reduce((sum, line) => sum + line.waiting, 0) : null
    quietHours = answer?.quietHours ?? null
    lineQuota = answer?.line ?? null
    lineRecipients = rows.reduce((sum, line) => sum + line.lineWaiting, 0)
    recipientInfo.setAttribute('aria-busy', 'false')
    const why =
      rows.length > 0
        ? notWaitingText({
            optedOut: rows.reduce((sum, line) => sum + line.notWaiting.optedOut, 0),
            unconfirmed: rows.reduce((sum, line) => sum + line.notWaiting.unconfirmed, 0),
            suppressed: rows.reduce((sum, line) => sum + line.notWaiting.suppressed, 0),
          })
        : null
    const count =
      recipients === 0
        ? '送信対象（通知を待っている購読者）はいません'
        : `送信対象: ${recipients} 人（通知を待っている購読者）`
    const line =
      lineQuota && lineRecipients > 0
        ? `うち LINE ${lineRecipients} 人。${lineQuotaText(lineQuota)}。${lineQuotaWarning(lineRecipients, lineQuota) ?? ''}`
        : ''
    recipientInfo.textContent =
      recipients === null
        ? ''
        : `${why ? `${count}。${why}（送信されません）。` : `${count}。`}${line}`
    renderPreview()
  }

  function showProgress(notificationId: string): void {
    replaceChildren(progressArea, [
      deliveryProgress(
        context,
        notificationId,
        () => {
          history.reload()
          void loadRecipients()
        },
        history.update,
      ),
    ])
    progressArea.scrollIntoView({ block: 'nearest' })
  }

  /**
   * When to send: `now`, an ISO time (inside the quiet hours, when staff choose their end), or
   * null when staff cancel.
   */
  async function askWhen(): Promise<'now' | string | null> {
    const warning = lineQuotaWarning(lineRecipients, lineQuota)
    const what = `「${targetTitle(productFilterOf(product.value))}」の購読者 ${recipients} 人に「${title.value.trim()}」を送信します。送信後は取り消せません。${warning ? ` ${warning}` : ''}`
    // why: the staff member's clock, in Japan time: the question is about their evening
    const now = Date.now()
    const end = quietHours ? sendableAt(quietHours, now) : now
    if (!quietHours || end <= now) {
      const confirmed = await confirmAction(
        '再入荷メールを送信しますか？',
        what,
        `${recipients} 人に送信する`,
      )
      return confirmed ? 'now' : null
    }
    const at = `${quietHours.until}:00`
    const chosen = await chooseAction(
      '夜間の送信',
      [`夜間です。今すぐ送信しますか、${at} に予約しますか`, what],
      [
        { value: 'now', label: '今すぐ送信' },
        { value: 'later', label: `${at} に予約`, look: 'primary' },
      ],
    )
    if (chosen === null) return null
    return chosen === 'later' ? new Date(end).toISOString() : 'now'
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (!ready()) return
    const when = await askWhen()
    if (when === null) return
    send.disabled = true
    const answer = await context.attempt(() =>
      context.api.post('adminNotifySend', {
        ...productFilterOf(product.value),
        emailTitle: title.value,
        emailBody: body.value,
        ...(when === 'now' ? {} : { sendAt: when }),
      }),
    )
    send.disabled = !ready()
    if (!answer) return
    if (answer.sendAt) {
      context.notify(
        `${formatTime(answer.sendAt)} に送信を予約しました。その時点で通知を待っている購読者に送ります。`,
      )
      return
    }
    context.notify('送信を受け付けました。配信状況を表示しています。')
    showProgress(answer.notificationId)
    history.reload()
  })
  product.addEventListener('change', () => void loadRecipients())
  title.addEventListener('input', renderPreview)
  body.addEventListener('input', renderPreview)
  renderPreview()
  history.show('')

  return el('div', {}, [
    el('section', { 'aria-labelledby': 'notice-title' }, [
      el('h2', { id: 'notice-title' }, ['再入荷メールを送る']),
      el('div', { class: 'notice-layout' }, [
        form,
        el('section', { class: 'card', 'aria-labelledby': 'preview-title' }, [
          el('h3', { id: 'preview-title' }, ['プレビュー（送信されるメールと同じ内容）']),
          previewArea,
        ]),
      ]),
      progressArea,
    ]),
    history.element,
  ])
}
