import { CustomerFormElement, type SuccessView } from './customerFormElement.js'

/** `<shop-reserve product="SLUG" endpoint="https://…">`: the reservation form (POST /api/reservation). */
export class ShopReserveElement extends CustomerFormElement {
  protected readonly path = '/api/reservation'
  protected readonly submitLabel = '予約する'
  protected readonly consentKind = 'reservation' as const
  protected readonly fields = [
    { name: 'name', label: 'お名前', type: 'text' as const, autocomplete: 'name' },
    { name: 'email', label: 'メールアドレス', type: 'email' as const, autocomplete: 'email' },
  ]

  protected successView(answer: Record<string, unknown>): SuccessView {
    return {
      message: 'ご予約を受け付けました。確認のメールをお送りしました。',
      id: String(answer.reservationId),
      idLabel: '予約番号',
    }
  }
}
