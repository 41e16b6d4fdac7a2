import { CustomerFormElement, type SuccessView } from './customerFormElement.js'
import { apiUrl, callApi, type ApiAnswer } from './widgetApi.js'

/** Fewer units left than this: the widget shows how many. */
const SHOW_REMAINING_BELOW = 10

const JST = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})

/** `2026年12月1日 10:00` (Japan time) for an ISO time; a bare date as `2027年1月20日`. */
function japaneseTime(iso: string, dateOnly = false): string {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  if (date) return `${Number(date[1])}年${Number(date[2])}月${Number(date[3])}日`
  const time = new Date(iso)
  if (Number.isNaN(time.getTime())) return iso
  return dateOnly ? JST.format(time).replace(/\s*\d{2}:\d{2}$/, '') : JST.format(time)
}

/** What GET /api/products/{slug}/availability answers (docs/api.md). */
interface Availability {
  reservable: boolean
  remaining: number | null
  opensAt: string | null
  closesAt: string | null
  releaseDate: string | null
}

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
export class ShopReserveElement extends CustomerFormElement {
  protected readonly path = '/api/reservation'
  protected readonly submitLabel = '予約する'
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

  protected successView(answer: Record<string, unknown>): SuccessView {
    return {
      message: 'ご予約を受け付けました。確認のメールをお送りしました。',
      id: String(answer.reservationId),
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
      notes.push(`発売予定日: ${japaneseTime(availability.releaseDate, true)}`)
    }
    if (!availability.reservable) {
      const now = Date.now()
      let lead = 'この商品の予約は上限数に達しました。'
      if (availability.opensAt && now < Date.parse(availability.opensAt)) {
        lead = `予約受付は${japaneseTime(availability.opensAt)}からです。`
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
