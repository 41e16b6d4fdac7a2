import { formatJst, formatReleaseDate } from '../lib/notifiers/jstTime.js'
import type { RouteAnswer, RoutePath } from '../lib/routes.js'
import { CustomerFormElement, type SuccessView } from './customerFormElement.js'
import { apiUrl, callApi, type ApiAnswer } from './widgetApi.js'

/** Fewer units left than this: the widget shows how many. */
const SHOW_REMAINING_BELOW = 10

/** What GET /api/products/{slug}/availability answers (its response schema). */
type Availability = RouteAnswer<'productAvailability'>

function availabilityOf(answer: ApiAnswer | null): Availability | null {
  const body = answer?.status === 200 ? answer.body : null
  if (!body || body.success !== true || typeof body.reservable !== 'boolean') return null
  return body as unknown as Availability
}

const SIGNUP_LEAD = '入荷・受付再開のお知らせをご希望の方は、メールアドレスをご登録ください。'

/**
 * `<shop-reserve product="SLUG" endpoint="https://…">`: the reservation form (POST
 * /api/reservation) with a quantity. It asks the product's availability first: fewer than 10
 * units left are shown; when the cap is reached or the window is closed, the form gives way to
 * the restock sign-up (`<shop-notify>`) for the same product.
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
    const slug = this.getAttribute('product') ?? ''
    if (!slug) return
    let answer: ApiAnswer | null = null
    try {
      answer = await callApi(apiUrl(this, `/api/products/${encodeURIComponent(slug)}/availability`))
    } catch {
      // why: without an answer the form stays; the reservation itself says what is wrong
      return
    }
    const availability = availabilityOf(answer)
    if (!availability) return
    const notes: string[] = []
    if (availability.releaseDate) {
      notes.push(`発売予定日: ${formatReleaseDate(availability.releaseDate)}`)
    }
    if (!availability.reservable) {
      const now = Date.now()
      let lead = 'この商品の予約は上限数に達しました。'
      if (availability.opensAt && now < Date.parse(availability.opensAt)) {
        lead = `予約受付は${formatJst(availability.opensAt)}からです。`
      } else if (availability.closesAt && now >= Date.parse(availability.closesAt)) {
        lead = '予約受付期間は終了しました。'
      }
      this.#switchToSignup([lead, ...notes].join(' '))
      return
    }
    if (availability.remaining !== null && availability.remaining < SHOW_REMAINING_BELOW) {
      notes.unshift(`残り${availability.remaining}点`)
    }
    this.showNotice(notes.join(' / '))
  }

  #switchToSignup(lead: string): void {
    this.showNotice(`${lead} ${SIGNUP_LEAD}`)
    const signup = document.createElement('shop-notify')
    signup.setAttribute('product', this.getAttribute('product') ?? '')
    const endpoint = this.getAttribute('endpoint')
    if (endpoint) signup.setAttribute('endpoint', endpoint)
    this.replaceForm(signup)
    this.setAttribute('state', 'signup')
  }
}
