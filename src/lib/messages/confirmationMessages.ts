import type { SenderIdentity } from '../storage/deliveryJobStore.js'
import type { EmailContent } from '../notifiers/resendMailer.js'
import type { CatalogueProduct } from '../productCatalogue.js'
import { senderLines } from './senderFooter.js'

/** The double opt-in e-mail: the signed link that confirms a restock sign-up (docs/compliance.md). */
export function signupConfirmationLinkEmail(input: {
  product: CatalogueProduct
  productUrl: string
  confirmationUrl: string
  sender: SenderIdentity
}): EmailContent {
  const { product } = input
  return {
    subject: `【再入荷通知】${product.title} の登録を確定してください`,
    text: [
      '再入荷通知へのご登録ありがとうございます。',
      '',
      `「${product.title}」の再入荷のお知らせを受け取るには、7日以内に次のリンクを開き、登録を確定してください。`,
      input.confirmationUrl,
      '',
      '確定されなかったご登録は7日後に削除され、メールをお送りすることはありません。',
      `商品ページ: ${input.productUrl}`,
      'このメールにお心当たりのない場合は、お手数ですが破棄してください。',
      '',
      ...senderLines(input.sender),
    ].join('\n'),
  }
}
