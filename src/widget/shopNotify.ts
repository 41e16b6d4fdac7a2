import { CustomerFormElement, type SuccessView } from './customerFormElement.js'

/**
 * A subscription id is `ntf_<creation ms>-<random>` and a repeated signup answers the pending
 * subscription's id (one per address and product), so an id created well before this request
 * was sent means the address was already signed up. The margin absorbs clock differences
 * between the shopper's device and the server.
 */
const ALREADY_SIGNED_UP_MARGIN_MS = 2 * 60 * 1000

function createdAt(subscriptionId: string): number | null {
  const match = /^ntf_(\d+)-/.exec(subscriptionId)
  return match ? Number(match[1]) : null
}

/** `<shop-notify product="SLUG" endpoint="…">`: the restock sign-up (POST /api/notify-signup). */
export class ShopNotifyElement extends CustomerFormElement {
  protected readonly path = '/api/notify-signup'
  protected readonly submitLabel = '入荷したら知らせる'
  protected readonly fields = [
    { name: 'email', label: 'メールアドレス', type: 'email' as const, autocomplete: 'email' },
  ]

  protected successView(answer: Record<string, unknown>, sentAt: number): SuccessView {
    const id = String(answer.subscriptionId)
    const created = createdAt(id)
    const already = created !== null && created < sentAt - ALREADY_SIGNED_UP_MARGIN_MS
    return {
      message: already
        ? 'このメールアドレスはすでに登録されています。入荷したらお知らせします（お知らせは1回だけです）。'
        : '登録しました。入荷したらメールでお知らせします。',
      id,
      idLabel: '登録番号',
    }
  }
}
