/**
 * THE consent wording (特定電子メール法 Art. 3; docs/compliance.md): the one text each widget
 * shows beside its button and the text every consent record refers to (by version). Change it
 * here, and only here: the next build shows the new text and stores it as a new version the first
 * time a shopper consents to it; records made under the old text keep naming the old version.
 * Browser-safe (the widgets import it).
 */
export const CONSENT_WORDING = {
  /** Beside the restock sign-up button (`<shop-notify>`). */
  'restock-notice':
    'ご登録いただいたメールアドレスに、この商品の再入荷のお知らせを送ることに同意します。配信はメール内のリンクからいつでも停止できます。',
  /** Beside the reservation button (`<shop-reserve>`). */
  reservation:
    'ご入力いただいたお名前とメールアドレスを、この予約の確認とご連絡のために利用することに同意します。',
  /** Beside the 「LINEで受け取る」 button (`<shop-notify>`, when the shop has LINE). */
  'restock-line':
    'LINEログインで確認したLINEのアカウントに、この商品の再入荷のお知らせをLINEで送ることに同意します。配信はショップの公式アカウントをブロックするといつでも停止できます。',
} as const
