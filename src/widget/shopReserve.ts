import type { RouteAnswer, RoutePath } from '../lib/routes.js'
import { CustomerFormElement, type SuccessView } from './customerFormElement.js'

/** `<shop-reserve product="SLUG" endpoint="https://…">`: the reservation form (POST /api/reservation). */
export class ShopReserveElement extends CustomerFormElement<'reservation'> {
  protected readonly path: RoutePath<'reservation'> = '/api/reservation'
  protected readonly submitLabel = '予約する'
  protected readonly fields = [
    { name: 'name', label: 'お名前', type: 'text' as const, autocomplete: 'name' },
    { name: 'email', label: 'メールアドレス', type: 'email' as const, autocomplete: 'email' },
  ]

  protected successView(answer: RouteAnswer<'reservation'>): SuccessView {
    return {
      message: 'ご予約を受け付けました。確認のメールをお送りしました。',
      id: answer.reservationId,
      idLabel: '予約番号',
    }
  }
}
