import type { SenderIdentity } from '../storage/deliveryJobStore.js'

/**
 * The sender block of every restock and confirmation e-mail (特定電子メール法 Art. 4): name,
 * postal address, contact for complaints. Outside production a missing detail is named in the
 * e-mail itself, so a developer sees what production would refuse.
 */
export function senderLines(sender: SenderIdentity): string[] {
  const lines = [
    `送信者: ${sender.name ?? '（未設定）'}`,
    `所在地: ${sender.address ?? '（未設定）'}`,
    `お問い合わせ・苦情の窓口: ${sender.contact ?? '（未設定）'}`,
  ]
  if (sender.missing.length > 0) {
    lines.push(
      `※ 送信者情報が未設定です（${sender.missing.join(', ')}）。本番環境ではこの状態で送信できません。`,
    )
  }
  return lines
}
