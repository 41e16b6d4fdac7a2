import { senderIdentity } from '../compliance/senderIdentity.js'
import { DEFAULT_DELIVERY_BUDGET_MS, EMAIL_NOT_CONFIGURED } from '../config.js'
import type { Logger } from '../log.js'
import { targetTitle } from '../productCatalogue.js'
import { markDelivered, restockProductLink } from '../demand/restockClicks.js'
import { renderRestockEmail, type HoldOffer } from '../messages/restockMessages.js'
import type { Mailer, OutgoingEmail } from '../notifiers/resendMailer.js'
import {
  ProgressContentionError,
  type BatchRecord,
  type DeliveryJob,
  type DeliveryRecipient,
} from '../storage/deliveryJobStore.js'
import type { NotificationHistory } from '../storage/records.js'
import type { WrittenBatch } from '../storage/recordCollection.js'
import type { Repositories } from '../storage/repositories.js'
import { createUnsubscribeToken, unsubscribeUrl } from '../compliance/unsubscribeToken.js'
import { formatJst } from '../notifiers/jstTime.js'
import { holdIdFor, holdsOf, withHoldsOpened, withHoldsUnsent } from '../storage/restockHolds.js'
import { createHoldToken, holdUrl } from './holdLink.js'
import { isEmailed, isRunning, noticeStateOf, storedState } from './noticeState.js'
import { holdTarget } from './sendPreparation.js'
import { pushToLine, type LineDelivery } from './lineDelivery.js'

/**
 * The worker of a restock delivery: one run of the background function sends the open batches
 * of one notice until its time budget. (Started over HTTP by deliveryStarter.ts; its
 * dependencies are wired by services.ts.)
 */

/** E-mails per provider call (§4.8, §8). */
export const BATCH_SIZE = 10
/**
 * Provider calls start at least this far apart, start to start: one batch a second including its
 * work (§4.8, §8), so a batch that took longer is followed at once.
 */
export const BATCH_DELAY_MS = 1000
/** Batches between folds of the product's subscription index during a delivery (about 10 s). */
const FOLD_EVERY_BATCHES = 10

/** The longest one batch may take: a call, one retry after the pause, and the blob writes. */
export function batchAllowanceFor(callTimeoutMs: number): number {
  return 2 * callTimeoutMs + BATCH_DELAY_MS + 10_000
}

export interface DeliveryRunOptions {
  repositories: Pick<Repositories, 'subscriptions' | 'history' | 'deliveries' | 'demand' | 'stock'>
  /**
   * Sends the e-mails; null without an e-mail provider, when a job holds LINE recipients only
   * (an e-mail recipient then fails with EMAIL_NOT_CONFIGURED).
   */
  mailer: Pick<Mailer, 'sendBatch'> | null
  /**
   * Pushes to LINE recipients; null while LINE is not configured (they fail, with the reason).
   * Default: null.
   */
  line?: LineDelivery | null
  /** Base of the click (product) and unsubscribe links (config `siteUrl`). */
  siteUrl: string
  unsubscribeSecret: string
  log: Logger
  /** Starts another invocation that continues this delivery (the background function). */
  continueLater: (notificationId: string) => Promise<void>
  /** The run's clock, ms since the epoch. */
  now: () => number
  /** Waits until the next provider call may start. Default: a timer. */
  sleep?: (ms: number) => Promise<void>
  /**
   * No batch starts that could end later than this after the invocation began (config
   * `deliveryBudgetMs`). Default: DEFAULT_DELIVERY_BUDGET_MS, 12 minutes.
   */
  budgetMs?: number
  /** Upper bound of one batch (see `batchAllowanceFor`). Default: `batchAllowanceFor(5000)`. */
  batchAllowanceMs?: number
}

export type DeliveryRunResult =
  | { state: 'missing' }
  | { state: 'already-complete' }
  | { state: 'continued'; batchesThisRun: number }
  | { state: 'complete'; batchesThisRun: number; history: NotificationHistory }

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** `${notificationId}/batch-${n}`: the same batch always has the same key and the same content. */
export function batchIdempotencyKey(notificationId: string, batch: number): string {
  return `restock/${notificationId}/batch-${batch}`
}

/**
 * The e-mail for one recipient: the same inputs always give the same e-mail (retries stay
 * identical). `now` (ms) dates the product link only of a job whose creation time is unreadable.
 * `hold`: the unit held for the recipient (its id and end), whose link the e-mail carries.
 */
/** A recipient's open hold as their message offers it: the signed link, its hours and end (JST). */
export function holdOffer(
  job: DeliveryJob,
  hold: { holdId: string; endsAt: string } | undefined,
  siteUrl: string,
  unsubscribeSecret: string,
): HoldOffer | undefined {
  if (!hold || !job.holdHours) return undefined
  const token = createHoldToken(
    { holdId: hold.holdId, target: holdTarget(job) },
    Date.parse(hold.endsAt),
    unsubscribeSecret,
  )
  return {
    url: holdUrl(siteUrl, token),
    hours: job.holdHours,
    endsAt: formatJst(hold.endsAt),
  }
}

export function restockEmailFor(
  job: DeliveryJob,
  recipient: DeliveryRecipient,
  siteUrl: string,
  unsubscribeSecret: string,
  now: number,
  hold?: { holdId: string; endsAt: string },
): OutgoingEmail {
  const ref = { id: recipient.subscriptionId, productSlug: job.productSlug }
  const link = unsubscribeUrl(siteUrl, createUnsubscribeToken(ref, unsubscribeSecret))
  const rendered = renderRestockEmail({
    emailTitle: job.emailTitle,
    emailBody: job.emailBody,
    // why: 「美濃焼 マグカップ（藍）」: the variant the recipient waits for, else the notice's
    productTitle: targetTitle({
      productSlug: job.productSlug,
      variant: recipient.variant ?? job.variant,
    }),
    productUrl: restockProductLink(job, recipient, siteUrl, unsubscribeSecret, now),
    unsubscribeUrl: link,
    sender: job.sender ?? senderIdentity({ shopName: null, shopAddress: null, shopContact: null }),
    hold: holdOffer(job, hold, siteUrl, unsubscribeSecret),
  })
  return {
    to: recipient.email,
    ...rendered,
    headers: {
      'List-Unsubscribe': `<${link}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  }
}

/**
 * Delivers (or continues delivering) one restock notification: batches of 10, provider calls
 * one a second start to start, one retry of a call that failed as a whole for a passing reason;
 * each settled batch is counted in the delivery's progress record. Stops before the time
 * budget could be passed and hands the rest to `continueLater`.
 * Settled batches are never sent again; a batch cut short by a crash is sent again with the
 * same idempotency key, so the provider sends nothing twice (within its 24 h key window).
 */
export async function runDelivery(
  notificationId: string,
  options: DeliveryRunOptions,
): Promise<DeliveryRunResult> {
  const { now } = options
  const sleep = options.sleep ?? defaultSleep
  const budgetMs = options.budgetMs ?? DEFAULT_DELIVERY_BUDGET_MS
  const allowanceMs = options.batchAllowanceMs ?? batchAllowanceFor(5000)
  const { log } = options
  const jobs = options.repositories.deliveries
  // why: batches marked since the last fold, taken into the product's index together (one base
  // write and one time view change for several batches); what a run that dies leaves is folded
  // from the deltas by the next reader
  const unabsorbed: WrittenBatch[] = []
  const startedAt = now()

  const history = await options.repositories.history.get({ id: notificationId })
  if (history && isComplete(history)) return { state: 'already-complete' }
  const job = await jobs.getJob(notificationId)
  if (!history || !job) {
    log.warn('restock.delivery.missing', { notificationId })
    return { state: 'missing' }
  }
  if (noticeStateOf(history) === 'queued') {
    await options.repositories.history.update({ id: notificationId }, (current) =>
      noticeStateOf(current) === 'queued'
        ? { ...current, ...storedState('delivering', isEmailed(current)) }
        : current,
    )
  }

  const batchCount = Math.ceil(job.recipients.length / BATCH_SIZE)
  const settled = await reconcileMarks(job)
  const open = Array.from({ length: batchCount }, (_, batch) => batch).filter(
    (batch) => !settled.has(batch),
  )
  // why: a run continuing a delivery cannot know when the last call started; it waits a whole pause
  let nextCallAt = settled.size > 0 ? now() + BATCH_DELAY_MS : now()
  let batchesThisRun = 0
  for (const batch of open) {
    if (batchesThisRun > 0 && now() - startedAt + BATCH_DELAY_MS + allowanceMs > budgetMs) {
      log.info('restock.delivery.continuing', { notificationId, nextBatch: batch, batchCount })
      try {
        await options.continueLater(notificationId)
      } catch (error) {
        log.error('restock.delivery.continue_failed', error, {
          notificationId,
          howToResume: `POST /api/admin/notify/resume {"notificationId": "${notificationId}"} with the admin token`,
        })
        throw error
      }
      return { state: 'continued', batchesThisRun }
    }
    await deliverBatch(job, batch)
    batchesThisRun += 1
  }
  const finished = await finish(history, job)
  return { state: 'complete', batchesThisRun, history: finished }

  async function deliverBatch(job: DeliveryJob, batch: number): Promise<void> {
    const recipients = job.recipients.slice(batch * BATCH_SIZE, (batch + 1) * BATCH_SIZE)
    const holds = await openHolds(job, recipients)
    const errors = await sendBatchOf(job, batch, recipients, holds)
    const record: BatchRecord = {
      batch,
      deliveredIds: [],
      failed: [],
      finishedAt: new Date(now()).toISOString(),
    }
    recipients.forEach((recipient, index) => {
      const error = errors[index]
      if (error === null) record.deliveredIds.push(recipient.subscriptionId)
      else record.failed.push({ ...recipient, error })
    })
    const stored = await jobs.saveBatch(job.notificationId, record)
    if (holds.size > 0 && stored.failed.length > 0) {
      // why: a hold whose e-mail never went was offered to nobody; its unit goes back
      const unsent = stored.failed.map((failed) =>
        holdIdFor(job.notificationId, failed.subscriptionId),
      )
      await options.repositories.stock.change(holdTarget(job), (current) =>
        withHoldsUnsent(current, unsent, now()),
      )
    }
    await markDelivered({ ...options, log }, job.notificationId, stored, now())
    if (record.failed.length > 0) {
      log.warn('restock.delivery.failures', {
        notificationId,
        batch,
        failed: record.failed.length,
        error: record.failed[0].error,
      })
    }
    await markNotified(job.productSlug, stored)
    await countIn(stored)
  }

  /**
   * With holds: opens the holds of the batch's recipients now, as their e-mails go (each keeps
   * the end it got the first time), and answers each recipient's hold that carries a link.
   */
  async function openHolds(
    job: DeliveryJob,
    recipients: DeliveryRecipient[],
  ): Promise<Map<string, { holdId: string; endsAt: string }>> {
    const found = new Map<string, { holdId: string; endsAt: string }>()
    const hours = job.holdHours
    if (!hours) return found
    const { notificationId } = job
    const { after } = await options.repositories.stock.change(holdTarget(job), (current) =>
      withHoldsOpened(
        current,
        recipients.map(({ subscriptionId }) => ({ subscriptionId, notificationId, hours })),
        now(),
      ),
    )
    const holds = holdsOf(after)
    for (const { subscriptionId } of recipients) {
      const holdId = holdIdFor(notificationId, subscriptionId)
      const endsAt = holds[holdId]?.endsAt
      if (endsAt) found.set(subscriptionId, { holdId, endsAt })
    }
    return found
  }

  /**
   * Sends one batch: its e-mail recipients in one provider call (one retry of a call that failed
   * for a passing reason), its LINE recipients pushed (lineDelivery.ts). Answers per recipient,
   * in order, null when accepted, else why not. Each recipient's open hold goes in their message.
   */
  async function sendBatchOf(
    job: DeliveryJob,
    batch: number,
    recipients: DeliveryRecipient[],
    holds: Map<string, { holdId: string; endsAt: string }>,
  ): Promise<(string | null)[]> {
    const errors: (string | null)[] = recipients.map(() => null)
    const isLine = (recipient: DeliveryRecipient) => recipient.lineUserId !== undefined
    const byEmail = recipients.flatMap((recipient, index) => (isLine(recipient) ? [] : [index]))
    const byLine = recipients.flatMap((recipient, index) => (isLine(recipient) ? [index] : []))
    if (byEmail.length > 0) {
      const emails = byEmail.map((index) =>
        restockEmailFor(
          job,
          recipients[index],
          options.siteUrl,
          options.unsubscribeSecret,
          now(),
          holds.get(recipients[index].subscriptionId),
        ),
      )
      const key = batchIdempotencyKey(job.notificationId, batch)
      let result = await callProvider(emails, key)
      if (result.retryable) {
        log.warn('restock.delivery.retrying', { notificationId, batch, error: result.errors[0] })
        result = await callProvider(emails, key)
      }
      byEmail.forEach((index, at) => (errors[index] = result.errors[at]))
    }
    if (byLine.length > 0) {
      const pushed = await pushToLine(
        job,
        byLine.map((index) => recipients[index]),
        options.line ?? null,
        (recipient) => ({
          productUrl: restockProductLink(
            job,
            recipient,
            options.siteUrl,
            options.unsubscribeSecret,
            now(),
          ),
          hold: holdOffer(
            job,
            holds.get(recipient.subscriptionId),
            options.siteUrl,
            options.unsubscribeSecret,
          ),
        }),
      )
      byLine.forEach((index, at) => (errors[index] = pushed[at]))
    }
    return errors
  }

  /** Starts a provider call no sooner than BATCH_DELAY_MS after the previous one started. */
  async function callProvider(emails: OutgoingEmail[], key: string) {
    const mailer = options.mailer
    if (!mailer) {
      return { retryable: false, errors: emails.map((): string | null => EMAIL_NOT_CONFIGURED) }
    }
    const wait = nextCallAt - now()
    if (wait > 0) await sleep(wait)
    nextCallAt = now() + BATCH_DELAY_MS
    return mailer.sendBatch(emails, key)
  }

  /**
   * Counts the batch just settled (and any before it not counted yet) in the progress record
   * that polls read. Derived from the batch records: what is not counted now, the next batch
   * or the completion counts.
   */
  async function countIn(record: BatchRecord): Promise<void> {
    try {
      await jobs.foldProgress(notificationId, batchCount, [record])
    } catch (error) {
      // why: a Blobs failure ends the run (as a failed batch write would); contention does not
      if (!(error instanceof ProgressContentionError)) throw error
      log.warn('restock.delivery.progress_behind', {
        notificationId,
        batch: record.batch,
        error: String(error),
      })
    }
  }

  /**
   * Marks the recipients of every batch that was recorded but not marked (its run died in
   * between) and answers the recorded batches. Without this they would stay `pending` for good
   * and get the next notice twice.
   */
  async function reconcileMarks(job: DeliveryJob): Promise<Set<number>> {
    const [settled, marked] = await Promise.all([
      jobs.settledBatches(notificationId),
      jobs.markedBatches(notificationId),
    ])
    const unmarked = [...settled].filter((batch) => !marked.has(batch)).sort((a, b) => a - b)
    if (unmarked.length === 0) return settled
    for (const record of await jobs.readBatches(notificationId, unmarked)) {
      await markNotified(job.productSlug, record)
    }
    log.warn('restock.delivery.reconciled', { notificationId, batches: unmarked })
    return settled
  }

  async function markNotified(productSlug: string, record: BatchRecord): Promise<void> {
    const { subscriptions } = options.repositories
    // why: one delta for the batch, each record written by compare-and-swap with the ETag the
    // product's index holds (no read), and the batch taken into the index without reading again
    const written = await subscriptions.updateMany(
      record.deliveredIds.map((id) => ({ id, productSlug })),
      (subscription) =>
        // why: someone who unsubscribed (or was handled by an admin) meanwhile keeps that status
        subscription.status === 'pending'
          ? { ...subscription, status: 'notified', notifiedAt: record.finishedAt }
          : subscription,
    )
    await jobs.saveMarked(notificationId, record.batch)
    if (written) unabsorbed.push(written)
    // why: a delivery changes thousands of subscriptions; folding as it goes keeps the product's
    // pending index deltas (what every list reads) to a few hundred instead of every recipient
    if ((record.batch + 1) % FOLD_EVERY_BATCHES === 0) await foldSubscriptions(productSlug)
  }

  async function foldSubscriptions(productSlug: string): Promise<void> {
    const batches = unabsorbed.splice(0)
    const { subscriptions } = options.repositories
    const work =
      batches.length > 0 ? subscriptions.absorb(batches) : subscriptions.fold(productSlug)
    await work.catch((error: unknown) =>
      log.warn('storage.index_fold_failed', {
        productSlug,
        error: error instanceof Error ? error.message : String(error),
      }),
    )
  }

  async function finish(
    history: NotificationHistory,
    job: DeliveryJob,
  ): Promise<NotificationHistory> {
    // why: a run working beside this one may have died between recording and marking a batch
    await reconcileMarks(job)
    await foldSubscriptions(job.productSlug)
    const counted = await jobs.foldProgress(notificationId, batchCount)
    if (counted.foldedBatches < batchCount) {
      throw new Error(
        `Delivery ${notificationId} counted ${counted.foldedBatches} of ${batchCount} batches at its end; resume it`,
      )
    }
    // why: without an e-mail provider the job pushes the LINE recipients alone; the others of
    // the notice were marked notified when it was stored and count as §4.8 says
    const sentCount = counted.sentCount + (job.recordedCount ?? 0)
    // why: the progress record names only the first failures; the history keeps every one
    const failedRecipients = (
      await jobs.readBatches(notificationId, counted.failedBatches)
    ).flatMap((record) =>
      record.failed.map(({ email, error, subscriptionId, lineUserId }) =>
        // why: a LINE recipient has no address; staff find them by the sign-up's id
        lineUserId !== undefined
          ? { email, error: `${error}（登録ID ${subscriptionId}）` }
          : { email, error },
      ),
    )
    const completedAt = new Date(now()).toISOString()
    const finished =
      (await options.repositories.history.update({ id: notificationId }, (current) => ({
        ...current,
        ...(isEmailed(current)
          ? storedState(sentCount > 0 ? 'sent' : 'failed')
          : storedState('recorded')),
        sentCount,
        failedRecipients,
        completedAt: current.completedAt ?? completedAt,
      }))) ?? history
    log.info('restock.delivery.complete', {
      notificationId,
      sentCount,
      failedCount: failedRecipients.length,
      status: finished.status,
    })
    return finished
  }
}

/** A delivery that ended (a record older than delivery has no run and is not "complete"). */
function isComplete(history: NotificationHistory): boolean {
  const state = noticeStateOf(history)
  return !isRunning(state) && !state.startsWith('legacy-')
}
