import type { RouteAnswer, RoutePath } from '../lib/routes.js'
import { placeText } from '../lib/messages/queuePlaceText.js'
import { CustomerFormElement, type SuccessView } from './customerFormElement.js'
import { lineSignup } from './lineSignup.js'
import { fetchAvailability, variantChoice } from './variantChoice.js'
import { apiUrl } from './widgetApi.js'

const ROUTES_LINE_LOGIN: RoutePath<'lineLogin'> = '/api/line/login'

/**
 * How the widget knows an address was already signed up: a repeated signup answers the pending
 * subscription's id (one per address and product). That id is one this browser was answered
 * before (remembered in localStorage), or its creation time (`ntf_<ms>-…`) lies well before this
 * request was sent. The margin absorbs clock differences between the device and the server.
 */
const ALREADY_SIGNED_UP_MARGIN_MS = 2 * 60 * 1000
const REMEMBERED_KEY = 'shop-notify:subscriptions'
const REMEMBERED_MAX = 50

function createdAt(subscriptionId: string): number | null {
  const match = /^ntf_(\d+)-/.exec(subscriptionId)
  return match ? Number(match[1]) : null
}

function rememberedIds(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(REMEMBERED_KEY) ?? '[]')
    return Array.isArray(value) ? value.filter((id) => typeof id === 'string') : []
  } catch {
    // why: storage may be disabled (privacy settings); the time rule still works
    return []
  }
}

function remember(id: string): void {
  try {
    const ids = [id, ...rememberedIds().filter((known) => known !== id)].slice(0, REMEMBERED_MAX)
    localStorage.setItem(REMEMBERED_KEY, JSON.stringify(ids))
  } catch {
    // why: see rememberedIds
  }
}

/**
 * `<shop-notify product="SLUG" endpoint="…">`: the restock sign-up (POST /api/notify-signup). A
 * product with variants shows a radio group of them with each one's state (予約受付中 / 残り n点 /
 * 在庫なし — 入荷お知らせ); `variant="ai"` pins the element to one variant (no choice shown).
 */
export class ShopNotifyElement extends CustomerFormElement<'notifySignup'> {
  protected readonly path: RoutePath<'notifySignup'> = '/api/notify-signup'
  protected readonly submitLabel = '入荷したら知らせる'
  protected readonly consentKind = 'restock-notice' as const
  protected readonly fields = [
    { name: 'email', label: 'メールアドレス', type: 'email' as const, autocomplete: 'email' },
  ]

  #checked = false

  override connectedCallback(): void {
    super.connectedCallback()
    if (this.#checked) return
    this.#checked = true
    void this.#showChoices()
  }

  /** The variant choice (unless pinned), and 「LINEで受け取る」 when the shop has LINE. */
  async #showChoices(): Promise<void> {
    const availability = await fetchAvailability(this)
    const lines = availability?.variants
    if (lines && !this.getAttribute('variant')?.trim()) {
      this.showVariants(variantChoice(lines, 'notify', () => {}))
    }
    if (availability?.lineSignup) {
      this.appendBelowForm(
        lineSignup({
          productName: this.getAttribute('product-name')?.trim() || null,
          loginUrl: () => {
            const url = apiUrl(this, ROUTES_LINE_LOGIN)
            url.searchParams.set('productSlug', this.getAttribute('product') ?? '')
            const variant = this.chosenVariant()
            if (variant) url.searchParams.set('variant', variant)
            return lines && !variant ? null : url.toString()
          },
        }),
      )
    }
  }

  protected successView(answer: RouteAnswer<'notifySignup'>, sentAt: number): SuccessView {
    const id = answer.subscriptionId
    const created = createdAt(id)
    const already =
      rememberedIds().includes(id) ||
      (created !== null && created < sentAt - ALREADY_SIGNED_UP_MARGIN_MS)
    remember(id)
    // why: with double opt-in nothing is sent until the shopper opens the e-mailed link, and the
    // sign-up joins the queue only then: the answer has no place yet
    const confirm = answer.confirmationRequired === true
    const place = answer.queue ? `入荷待ちの順番は ${placeText(answer.queue)}です。` : ''
    return {
      message: confirm
        ? already
          ? 'このメールアドレスはすでに登録済みで、確認をお待ちしています。お送りした確認メールを開き、リンクから登録を確定してください。確定すると入荷待ちの順番に加わります。'
          : '確認メールをお送りしました。メールを開き、リンクから登録を確定してください。確定すると入荷待ちの順番に加わります。確定するまで再入荷のお知らせは届きません。'
        : already
          ? `このメールアドレスはすでに登録済みです。${place}入荷したら1回だけお知らせします。`
          : `登録しました。${place}入荷したらメールでお知らせします。`,
      id,
      idLabel: '登録番号',
    }
  }
}
