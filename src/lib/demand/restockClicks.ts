import type { Logger } from '../log.js'
import type { BatchRecord, DeliveryJob, DeliveryRecipient } from '../storage/deliveryJobStore.js'
import type { Repositories } from '../storage/repositories.js'
import { clickUrl } from './clickLink.js'
import { markDemand } from './demandMarks.js'

/**
 * The product link of one restock e-mail: the signed click link (clickLink.ts). Its expiry runs
 * from the job's creation, so a batch sent again after a crash carries the same link (the same
 * content under the same idempotency key); from `now` (ms) for a job without a readable one.
 */
export function restockProductLink(
  job: DeliveryJob,
  recipient: DeliveryRecipient,
  siteUrl: string,
  secret: string,
  now: number,
): string {
  const link = {
    noticeId: job.notificationId,
    subscriptionId: recipient.subscriptionId,
    productSlug: job.productSlug,
  }
  const created = Date.parse(job.createdAt)
  // why: a job without a readable creation time still gets a working link
  return clickUrl(siteUrl, link, secret, Number.isFinite(created) ? created : now)
}

/** The day markers of a settled batch: e-mails sent and failed, keyed by notice and batch. */
export async function markDelivered(
  services: { repositories: Pick<Repositories, 'demand'>; log: Logger },
  noticeId: string,
  record: BatchRecord,
  at: number,
): Promise<void> {
  const eventId = `${noticeId}-${record.batch}`
  await markDemand(services, 'sent', eventId, { at, count: record.deliveredIds.length })
  await markDemand(services, 'failed', eventId, { at, count: record.failed.length })
}
