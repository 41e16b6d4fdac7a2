import type { SenderIdentity } from '../storage/deliveryJobStore.js'
import type { EmailContent } from '../notifiers/resendMailer.js'
import type { CatalogueProduct } from '../productCatalogue.js'
import { senderLines } from './senderFooter.js'

/** A product a confirmation e-mail names, with its page's address. */
export interface ConfirmedProduct {
  product: CatalogueProduct
  productUrl: string
}

/**
 * The double opt-in e-mail (docs/compliance.md): the signed link that confirms the restock
 * sign-ups of one address, listing those that wait for it (the one just made first). One link
 * confirms them all, and also sign-ups of the next minute that get no e-mail of their own.
 */
export function signupConfirmationLinkEmail(input: {
  products: readonly ConfirmedProduct[]
  confirmationUrl: string
  sender: SenderIdentity
}): EmailContent {
  const [first] = input.products
  const several = input.products.length > 1
  return {
    subject: several
      ? `【再入荷通知】${input.products.length}件のご登録を確定してください`
      : `【再入荷通知】${first.product.title} の登録を確定してください`,
    text: [
      '再入荷通知へのご登録ありがとうございます。',
      '',
      several
        ? '次の商品の再入荷のお知らせを受け取るには、7日以内に下のリンクを開き、登録を確定してください。'
        : `「${first.product.title}」の再入荷のお知らせを受け取るには、7日以内に次のリンクを開き、登録を確定してください。`,
      ...(several
        ? [
            ...input.products.map(({ product, productUrl }) => `・${product.title} ${productUrl}`),
            '',
          ]
        : []),
      input.confirmationUrl,
      '',
      'このリンクで、このメールアドレスで確定をお待ちのご登録をまとめて確定できます（このメールの後にご登録の商品も含みます）。',
      '確定されなかったご登録は7日後に削除され、メールをお送りすることはありません。',
      ...(several ? [] : [`商品ページ: ${first.productUrl}`]),
      'このメールにお心当たりのない場合は、お手数ですが破棄してください。',
      '',
      ...senderLines(input.sender),
    ].join('\n'),
  }
}
