import type { DeliveryMode, NotificationHistory } from '../storage/records.js'
import type { WaveNotice, WaveSendOutcome } from '../stock/stockWaves.js'
import { joinMrkdwn, mrkdwn } from '../notifiers/slackText.js'
import { targetTitle } from '../productCatalogue.js'
import { DeliveryStartError } from './deliveryStarter.js'
import { isEmailed, noticeStateOf } from './noticeState.js'
import { prepareNotice, sendReadiness, type SendOptions } from './sendPreparation.js'

/**
 * One wave of a product's automatic notice (stock/stockWaves.ts): the same preparation as a
 * staff member's send, for at most `notice.limit` of the oldest waiting subscribers no open
 * notice holds. A wave whose notice is stored already (run twice) sends nothing more. When the
 * background delivery cannot be started, the notice stays `queued` for the scheduled resume.
 */
export async function sendRestockWave(
  notice: WaveNotice,
  options: SendOptions,
): Promise<WaveSendOutcome> {
  const { repositories, log } = options
  const { notificationId } = notice
  const readiness = sendReadiness(options)
  const existing = await repositories.history.get({ id: notificationId })
  if (existing) {
    return {
      state: 'sent',
      notificationId,
      recipients: existing.recipientEmails.length,
      deliveryMode: deliveryModeOf(existing),
    }
  }
  const quota = await options.lineQuota?.()
  const lineAllowance =
    quota && quota.limit !== null ? Math.max(0, quota.limit - quota.usage) : undefined
  const prepared = await prepareNotice(
    { ...notice, retried: null, ...(lineAllowance === undefined ? {} : { lineAllowance }) },
    readiness,
    options,
  )
  if (prepared.state !== 'stored') return prepared
  if (prepared.isNew && prepared.lineHeldBack > 0) {
    await tellLineQuotaReached(notice, prepared.lineHeldBack, options)
  }
  const recipients = prepared.history.recipientEmails.length
  if (prepared.isNew && noticeStateOf(prepared.history) === 'queued') {
    try {
      await options.startDelivery(notificationId)
    } catch (error) {
      if (!(error instanceof DeliveryStartError)) throw error
      log.error('stock.wave.start_failed', error, {
        notificationId,
        resumedBy: 'resume-stalled-deliveries, or POST /api/admin/notify/resume',
      })
    }
    // why: the notice stays queued for the scheduled resume either way; its recorded part is done
    await prepared.markRecorded()
  }
  return {
    state: 'sent',
    notificationId,
    recipients,
    deliveryMode: deliveryModeOf(prepared.history),
  }
}

/** How a notice reached people: e-mailed, or only recorded (no provider, §4.8). */
function deliveryModeOf(history: NotificationHistory): DeliveryMode {
  return isEmailed(history) ? 'email' : 'record-only'
}

/**
 * Staff are told (restock team chat, and the log) that a wave left LINE sign-ups waiting because
 * the month's LINE messages are used up; they go in a later wave once there is quota again.
 */
async function tellLineQuotaReached(
  notice: WaveNotice,
  heldBack: number,
  options: SendOptions,
): Promise<void> {
  options.log.warn('stock.wave.line_quota_reached', {
    notificationId: notice.notificationId,
    productSlug: notice.productSlug,
    lineHeldBack: heldBack,
  })
  await options.notifiers?.teamchatRestock.send(
    joinMrkdwn([
      mrkdwn`*LINEの今月の送信数が上限に達しました*`,
      mrkdwn`「${targetTitle(notice)}」の自動通知で、LINEで登録した ${heldBack} 人にはまだ送っていません。`,
      mrkdwn`送信数に余裕ができると（翌月、またはLINE公式アカウントのプラン変更後）、次の波で順に送ります。`,
    ]),
  )
}
