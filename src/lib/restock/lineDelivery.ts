import { mapWithConcurrency } from '../concurrency.js'
import { lineRestockMessage } from '../messages/lineRestockMessage.js'
import type { HoldOffer } from '../messages/restockMessages.js'
import { retryKeyOf, type LinePusher } from '../notifiers/linePusher.js'
import { productImageUrl, targetTitle } from '../productCatalogue.js'
import type { DeliveryJob, DeliveryRecipient } from '../storage/deliveryJobStore.js'
import { lineUserHash, type LineContactBook } from '../storage/lineContacts.js'
import { senderIdentity } from '../compliance/senderIdentity.js'

/**
 * The LINE part of a restock delivery batch: each LINE recipient gets one push of the Flex
 * message, with an `X-Line-Retry-Key` derived from the notice and the recipient, so that the
 * batch sent again after a crash (or the one retry of a push that failed for a passing reason)
 * is never delivered twice. A recipient who is known not to have the shop's official account as
 * a friend is not pushed: recorded as failed with the reason staff see.
 */

/** The failure staff see for a LINE recipient who is not a friend of the official account. */
export const NOT_A_FRIEND = 'LINE: 公式アカウントが友だち追加されていないため送れません'
/** The failure of a LINE recipient while LINE is not configured. */
export const LINE_NOT_CONFIGURED_FAILURE = 'LINE: LINEの設定（LINE_…）がないため送れません'

/** The failure of a LINE recipient erased (personal-data erase) before their push. */
export const ERASED_FAILURE = 'LINE: 登録が削除されたため送っていません'

/** What pushing needs (wired by services.ts when LINE is configured). */
export interface LineDelivery {
  pusher: Pick<LinePusher, 'push'>
  contacts: Pick<LineContactBook, 'get'>
  /** Base of the product's picture (`STOREFRONT_URL`). */
  storefrontUrl: string
}

/** The retry key of the push of `notificationId` to `subscriptionId`: a UUID, always the same. */
export function lineRetryKey(notificationId: string, subscriptionId: string): string {
  return retryKeyOf(`line-push/${notificationId}/${subscriptionId}`)
}

/**
 * Pushes to each LINE recipient of a batch (with the product link and any hold `linksOf` gives
 * them); answers, in their order, null for a push LINE
 * accepted and the reason for one that failed.
 */
export async function pushToLine(
  job: DeliveryJob,
  recipients: DeliveryRecipient[],
  line: LineDelivery | null,
  linksOf: (recipient: DeliveryRecipient) => { productUrl: string; hold?: HoldOffer },
): Promise<(string | null)[]> {
  return mapWithConcurrency(recipients, 5, async (recipient) => {
    const lineUserId = recipient.lineUserId
    if (!lineUserId) return ERASED_FAILURE
    if (!line) return LINE_NOT_CONFIGURED_FAILURE
    const contact = await line.contacts.get(lineUserHash(lineUserId))
    if (contact?.friend === false) return NOT_A_FRIEND
    const target = { productSlug: job.productSlug, variant: recipient.variant ?? job.variant }
    const { productUrl, hold } = linksOf(recipient)
    const message = lineRestockMessage({
      title: job.emailTitle,
      body: job.emailBody,
      productTitle: targetTitle(target),
      productUrl,
      ...(hold ? { hold } : {}),
      imageUrl: productImageUrl(job.productSlug, line.storefrontUrl),
      sender:
        job.sender ?? senderIdentity({ shopName: null, shopAddress: null, shopContact: null }),
    })
    const key = lineRetryKey(job.notificationId, recipient.subscriptionId)
    let result = await line.pusher.push(lineUserId, [message], key)
    if (result.outcome === 'failed' && result.retryable) {
      result = await line.pusher.push(lineUserId, [message], key)
    }
    return result.outcome === 'sent' ? null : `LINE: ${result.error}`
  })
}
