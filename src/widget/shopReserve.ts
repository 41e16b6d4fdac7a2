import { formatJst, formatReleaseDate } from '../lib/notifiers/jstTime.js'
import type { RouteAnswer, RoutePath } from '../lib/routes.js'
import { CustomerFormElement, type SuccessView } from './customerFormElement.js'
import {
  fetchAvailability,
  SHOW_REMAINING_BELOW,
  variantChoice,
  type Availability,
  type VariantLine,
} from './variantChoice.js'
import type { ApiAnswer } from './widgetApi.js'

/** The pre-order state of a product, or of one of its variants. */
type PreorderState = Pick<
  Availability,
  'reservable' | 'remaining' | 'opensAt' | 'closesAt' | 'releaseDate'
>

const SIGNUP_LEAD = '入荷・受付再開のお知らせをご希望の方は、メールアドレスをご登録ください。'

/**
 * `<shop-reserve product="SLUG" endpoint="https://…">`: the reservation form (POST
 * /api/reservation) with a quantity. It asks the product's availability first: fewer than 10
 * units left are shown; when the cap is reached or the window is closed, the form gives way to
 * the restock sign-up (`<shop-notify>`) for the same product. A product with variants shows a
 * radio group of them with each one's state (予約受付中 / 残り n点 / 在庫なし — 入荷お知らせ);
 * choosing one the shopper cannot reserve shows the sign-up for that variant, choosing another
 * brings the form back. `variant="ai"` pins the element to one variant (no choice shown).
 */
export class ShopReserveElement extends CustomerFormElement<'reservation'> {
  protected readonly path: RoutePath<'reservation'> = '/api/reservation'
  protected readonly submitLabel = '予約する'
  protected readonly consentKind = 'reservation' as const
  protected readonly fields = [
    { name: 'name', label: 'お名前', type: 'text' as const, autocomplete: 'name' },
    { name: 'email', label: 'メールアドレス', type: 'email' as const, autocomplete: 'email' },
    {
      name: 'quantity',
      label: '数量',
      type: 'number' as const,
      autocomplete: 'off',
      attributes: { min: '1', value: '1', inputmode: 'numeric' },
    },
  ]

  #checked = false

  override connectedCallback(): void {
    super.connectedCallback()
    if (this.#checked) return
    this.#checked = true
    void this.#showAvailability()
  }

  protected successView(answer: RouteAnswer<'reservation'>): SuccessView {
    return {
      message: 'ご予約を受け付けました。確認のメールをお送りしました。',
      id: answer.reservationId,
      idLabel: '予約番号',
    }
  }

  /** A 409 (cap reached, window closed) turns the form into the sign-up with the server's text. */
  protected override handleRefusal(answer: ApiAnswer): boolean {
    if (answer.status !== 409 || typeof answer.body?.error !== 'string') return false
    if (answer.body.remaining === undefined && answer.body.error !== '予約受付期間外です。') {
      return false
    }
    this.#switchToSignup(answer.body.error)
    return true
  }

  async #showAvailability(): Promise<void> {
    const availability = await fetchAvailability(this)
    if (!availability) return
    const lines = availability.variants
    if (!lines) return this.#showState(availability)
    const pinned = this.getAttribute('variant')?.trim()
    if (pinned) {
      const line = lines.find((each) => each.variant === pinned)
      if (line) this.#showState(line)
      return
    }
    this.showVariants(variantChoice(lines, 'reserve', (line) => this.#chose(line)))
  }

  /** A variant was chosen: its state, and the form or the sign-up that goes with it. */
  #chose(line: VariantLine): void {
    this.restoreForm()
    this.removeAttribute('state')
    this.#showState(line)
  }

  #showState(state: PreorderState): void {
    const notes: string[] = []
    if (state.releaseDate) notes.push(`発売予定日: ${formatReleaseDate(state.releaseDate)}`)
    if (!state.reservable) {
      const now = Date.now()
      let lead = 'この商品の予約は上限数に達しました。'
      if (state.opensAt && now < Date.parse(state.opensAt)) {
        lead = `予約受付は${formatJst(state.opensAt)}からです。`
      } else if (state.closesAt && now >= Date.parse(state.closesAt)) {
        lead = '予約受付期間は終了しました。'
      }
      this.#switchToSignup([lead, ...notes].join(' '))
      return
    }
    if (state.remaining !== null && state.remaining < SHOW_REMAINING_BELOW) {
      notes.unshift(`残り${state.remaining}点`)
    }
    this.showNotice(notes.join(' / '))
  }

  #switchToSignup(lead: string): void {
    this.showNotice(`${lead} ${SIGNUP_LEAD}`)
    const signup = document.createElement('shop-notify')
    signup.setAttribute('product', this.getAttribute('product') ?? '')
    // why: the sign-up is for the variant the shopper could not reserve
    const variant = this.chosenVariant()
    if (variant) signup.setAttribute('variant', variant)
    const endpoint = this.getAttribute('endpoint')
    if (endpoint) signup.setAttribute('endpoint', endpoint)
    this.replaceForm(signup)
    this.setAttribute('state', 'signup')
  }
}
