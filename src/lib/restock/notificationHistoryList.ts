import { z } from '../../generated/zod.js'
import { mapWithConcurrency } from '../concurrency.js'
import { pagingFields } from '../paging.js'
import type { DeliveryJobStore } from '../storage/deliveryJobStore.js'
import type {
  DeliveryMode,
  DeliveryState,
  NotificationHistory,
  NotificationTrigger,
} from '../storage/records.js'
import type { HistoryRepository } from '../storage/repositories.js'
import { progressOf } from './deliveryProgress.js'

/**
 * POST /api/admin/notify/history: past restock notices, newest first, each with the progress of
 * its delivery. Read-only: history records and the progress records of running deliveries (one
 * blob each, whatever the delivery's size) are only read.
 */

const NOTIFICATION_ID_INVALID = 'notificationId must be a string'
const PRODUCT_SLUG_INVALID = 'productSlug must be a string'
// why: only deliveries still running read their progress record; a few at once is plenty
const PROGRESS_CONCURRENCY = 5

/** Optional text; `null` and `''` mean "not given" (a dashboard's "All" choice). */
function optionalText(message: string) {
  return z
    .string({ error: message })
    .nullish()
    .transform((value) => value || undefined)
}

/** Body of POST /api/admin/notify/history. */
export const historyListSchema = z.object({
  productSlug: optionalText(PRODUCT_SLUG_INVALID),
  /** Only notices for this variant (its id): a variant's sends and waves. */
  variant: optionalText('variant must be a string').optional(),
  notificationId: optionalText(NOTIFICATION_ID_INVALID),
  ...pagingFields,
})

export type HistoryListRequest = z.output<typeof historyListSchema>

/** One notice as the dashboard shows it. */
export interface NotificationSummary {
  id: string
  productSlug: string
  /** The variant the notice was for (its id); absent for a whole product. */
  variant?: string
  /** The e-mail subject (`emailTitle`). */
  title: string
  /** When it was sent (the §4.8 answer's timestamp). */
  timestamp: string
  /** When its last batch was settled; null while it runs (and on records older than delivery). */
  completedAt: string | null
  /** Recipients snapshotted at send time. */
  recipients: number
  /** E-mails the provider accepted so far (record-only: every recipient). */
  sentCount: number
  /** Recipients whose e-mail failed so far. */
  failedCount: number
  /** Recipients not settled yet (0 once complete). */
  pendingCount: number
  state: DeliveryState
  /** §2.3 status: `failed` only when complete and nobody was reached. */
  status: 'sent' | 'failed'
  /** `email` (Resend) or `record-only` (no provider, §4.8); null on records older than delivery. */
  deliveryMode: DeliveryMode | null
  /**
   * Only when one notification is asked for: who failed and why (while it runs, the first 100;
   * `failedCount` counts them all).
   */
  failedRecipients?: { email: string; error: string }[]
  /** The automatic wave that sent it; absent on a staff member's send. */
  trigger?: NotificationTrigger
}

export interface NotificationHistoryPage {
  notifications: NotificationSummary[]
  total: number
  page: number
  pageSize: number
  totalPages: number
}

export interface HistorySources {
  history: Pick<HistoryRepository, 'get' | 'list'>
  jobs: Pick<DeliveryJobStore, 'getProgress'>
}

/**
 * The notices matching the request, newest first, one page of them. With `notificationId`, just
 * that one (an empty page when it does not exist), read directly, with its failed recipients:
 * what a progress view polls.
 */
export async function listNotificationHistory(
  sources: HistorySources,
  request: HistoryListRequest,
): Promise<NotificationHistoryPage> {
  const { page, pageSize } = request
  if (request.notificationId) {
    const record = await sources.history.get({ id: request.notificationId })
    const matches = record && matchesRequest(record, request)
    const notifications = matches ? [await summarize(sources, record, true)] : []
    return { notifications, total: notifications.length, page: 1, pageSize, totalPages: 1 }
  }
  const records = (await sources.history.list()).records
    .filter((record) => matchesRequest(record, request))
    .sort((a, b) => compareText(b.timestamp, a.timestamp) || compareText(b.id, a.id))
  const start = (page - 1) * pageSize
  const notifications = await mapWithConcurrency(
    records.slice(start, start + pageSize),
    PROGRESS_CONCURRENCY,
    (record) => summarize(sources, record, false),
  )
  return {
    notifications,
    total: records.length,
    page,
    pageSize,
    totalPages: Math.ceil(records.length / pageSize),
  }
}

function matchesRequest(record: NotificationHistory, request: HistoryListRequest): boolean {
  return (
    (!request.productSlug || record.productSlug === request.productSlug) &&
    (!request.variant || record.variant === request.variant)
  )
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

async function summarize(
  sources: HistorySources,
  record: NotificationHistory,
  withFailures: boolean,
): Promise<NotificationSummary> {
  const progress = await progressOf(record, sources.jobs)
  const summary: NotificationSummary = {
    id: record.id,
    productSlug: record.productSlug,
    ...(record.variant === undefined ? {} : { variant: record.variant }),
    title: record.emailTitle,
    timestamp: record.timestamp,
    completedAt: progress.completedAt,
    recipients: progress.recipientCount,
    sentCount: progress.sentCount,
    failedCount: progress.failedCount,
    pendingCount: progress.pendingCount,
    state: progress.deliveryState,
    status: progress.status,
    deliveryMode: progress.deliveryMode,
  }
  if (withFailures) summary.failedRecipients = progress.failedRecipients
  if (record.trigger) summary.trigger = record.trigger
  return summary
}
