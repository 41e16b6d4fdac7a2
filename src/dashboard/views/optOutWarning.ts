import { confirmAction } from '../dialogs.js'
import type { RecordRow } from '../recordResources.js'

/** What staff read before setting an opted-out subscriber back to pending (docs/compliance.md). */
export const OPTED_OUT_WARNING =
  'この方は配信停止済みです。ステータスを「未通知」に戻しても、ご本人が改めて登録しない限り再入荷メールは送られません（特定電子メール法により、配信停止した方へ送ることはできません）。変更しますか？'

/**
 * Whether a status change may go ahead: setting a subscriber who opted out back to `pending`
 * asks first; every other change goes ahead at once.
 */
export async function optedOutPendingConfirmed(row: RecordRow, status: string): Promise<boolean> {
  if (status !== 'pending' || !row.unsubscribedAt) return true
  return confirmAction('配信停止済みの方です', OPTED_OUT_WARNING, '未通知に戻す')
}
