import { SYSTEM_ACTORS } from '../actors.js'
import { auditRecorder, type AuditRecorder } from '../audit/auditTrail.js'
import { AlreadyInProgressError, DomainError, TryAgainLaterError } from '../errors.js'
import type { Logger } from '../log.js'
import { targetKey } from '../productCatalogue.js'
import { sendableAt, type QuietHours } from '../quietHours.js'
import type { AuditRepository } from '../storage/auditRepository.js'
import type { Repositories } from '../storage/repositories.js'
import type { ScheduledSend } from '../storage/scheduledSends.js'
import { dueWaves, runDueWave, type WaveOptions } from '../stock/stockWaves.js'
import { isOpen } from './notificationIds.js'
import { sendNotice, summaryOf } from './sendRestockNotification.js'
import { sendReadiness, type SendOptions } from './sendPreparation.js'

/**
 * What the scheduled sweep sends (netlify/functions/stock-reconcile.ts, every 10 minutes, on
 * published deploys): every send whose time has come, from every source, as one queue in the
 * order they fell due (FIFO), within one time budget (a scheduled function has 30 s; what is left
 * goes at the next sweep, still first in line). Quiet hours (`QUIET_HOURS`): an automatic send
 * (a wave) that falls due inside them waits, still due, and goes at the first sweep after they
 * end, in its place in the queue; a send staff scheduled goes at the time they chose.
 *
 * Each source answers its due sends; another kind of timed e-mail (a reminder) joins the queue
 * as one more source, and the quiet hours and the order apply to it as they do to waves.
 */

/**
 * How long one sweep starts sends: Netlify ends a scheduled function after 30 s, and the sweep
 * reads the stock feed first (at most OUTBOUND_TIMEOUT_MS).
 */
export const SWEEP_BUDGET_MS = 20_000

/** One send whose time has come. */
export interface DueSend {
  /** What it is, for the log and the count: `wave`, `scheduled`. */
  kind: string
  /** What names it in the log (a product slug, a scheduled send's id). */
  key: string
  /** Since when it is due, ms since the epoch: its place in the queue. */
  dueAt: number
  /** Whether it waits out the quiet hours (automatic e-mails do; a time staff chose does not). */
  automatic: boolean
  /** Sends it: `done` (sent, or nothing left to send), `waiting` (still due: the next sweep). */
  send: () => Promise<'done' | 'waiting'>
}

/** The sends of one kind that are due at `now`. */
export type DueSource = (now: number) => Promise<DueSend[]>

export interface SweepOptions {
  sources: readonly DueSource[]
  quietHours: QuietHours | null
  /** How long the sweep may start sends, ms (the rest waits for the next). */
  budgetMs: number
  log: Logger
  now: () => number
}

export interface SweepSummary {
  /** Sends done, by kind. */
  done: Record<string, number>
  /** Automatic sends due but waiting for the end of the quiet hours. */
  quietHoursWaiting: number
  /** Sends still due after this sweep (busy, failed to start, or past the budget). */
  left: number
}

/** Sends what is due, the one due first first; automatic ones only outside the quiet hours. */
export async function sendDueSends(options: SweepOptions): Promise<SweepSummary> {
  const started = options.now()
  const due = (await Promise.all(options.sources.map((source) => source(started))))
    .flat()
    .sort((a, b) => a.dueAt - b.dueAt || a.kind.localeCompare(b.kind) || a.key.localeCompare(b.key))
  const quiet = sendableAt(options.quietHours, started) > started
  const summary: SweepSummary = { done: {}, quietHoursWaiting: 0, left: 0 }
  for (const item of due) {
    if (quiet && item.automatic) {
      summary.quietHoursWaiting++
      continue
    }
    if (options.now() - started >= options.budgetMs) {
      summary.left++
      continue
    }
    let outcome: 'done' | 'waiting' = 'waiting'
    try {
      outcome = await item.send()
    } catch (error) {
      // why: one send's failure must not hold back the others; it stays due for the next sweep
      options.log.error('sweep.send_failed', error, { kind: item.kind, key: item.key })
    }
    if (outcome === 'done') summary.done[item.kind] = (summary.done[item.kind] ?? 0) + 1
    else summary.left++
  }
  if (summary.quietHoursWaiting > 0 || summary.left > 0) {
    options.log.info('sweep.waiting', {
      quietHours: summary.quietHoursWaiting,
      left: summary.left,
      sendsAt: quiet ? new Date(sendableAt(options.quietHours, started)).toISOString() : null,
    })
  }
  return summary
}

/** The automatic waves that are due (stock/stockWaves.ts). */
export function waveSource(waves: WaveOptions): DueSource {
  return async (now) =>
    (await dueWaves(waves.stock, now)).map(({ target, dueAt }) => ({
      kind: 'wave',
      key: targetKey(target),
      dueAt,
      automatic: true,
      send: async () => {
        const run = await runDueWave(target, waves)
        return run.state === 'busy' || run.state === 'quiet-hours' ? 'waiting' : 'done'
      },
    }))
}

/** What sending the scheduled sends uses. */
export interface ScheduledSendOptions extends SendOptions {
  repositories: SendOptions['repositories'] & Pick<Repositories, 'scheduledSends'>
  /** Where the audit entries of a send go, each with the staff member who scheduled it. */
  auditTrail: AuditRepository
}

/** The sends staff scheduled whose time has come. */
export function scheduledSource(options: ScheduledSendOptions): DueSource {
  return async (now) => {
    const { records } = await options.repositories.scheduledSends.list()
    return records
      .filter((record) => record.state === 'scheduled' && Date.parse(record.sendAt) <= now)
      .map((record) => ({
        kind: 'scheduled',
        key: record.id,
        dueAt: Date.parse(record.sendAt),
        automatic: false,
        send: () => runScheduledSend(record, options),
      }))
  }
}

/**
 * Sends one scheduled send as its notice (the id it was given), then records what became of it:
 * `sent`, or `failed` with the reason staff read (nobody waiting then, a setting missing). A
 * product another send holds, or a delivery that could not be started, waits for the next sweep.
 * A sweep that finds its notice stored already (run twice) sends nobody twice.
 */
export async function runScheduledSend(
  record: ScheduledSend,
  options: ScheduledSendOptions,
): Promise<'done' | 'waiting'> {
  const audit: AuditRecorder = auditRecorder({
    repository: options.auditTrail,
    // why: the send is the staff member's, made at the time they chose
    actor: record.scheduledBy ?? SYSTEM_ACTORS.stockReconcile,
    log: options.log,
    now: options.now,
  })
  const send = { ...options, audit }
  const { productSlug, emailTitle, emailBody, notificationId } = record
  try {
    const readiness = sendReadiness(send)
    const open = await options.repositories.history.get({ id: notificationId })
    const summary =
      open && !isOpen(open)
        ? summaryOf(open)
        : await sendNotice(
            { productSlug, emailTitle, emailBody },
            { id: notificationId, open },
            readiness,
            send,
          )
    await settle(record, options, 'sent', null)
    options.log.info('restock.scheduled_send.sent', {
      scheduledSendId: record.id,
      notificationId,
      recipients: summary.sentCount,
    })
    return 'done'
  } catch (error) {
    if (error instanceof AlreadyInProgressError || error instanceof TryAgainLaterError) {
      options.log.info('restock.scheduled_send.waiting', {
        scheduledSendId: record.id,
        reason: error.message,
      })
      return 'waiting'
    }
    if (!(error instanceof DomainError)) throw error
    await settle(record, options, 'failed', error.message)
    options.log.warn('restock.scheduled_send.failed', {
      scheduledSendId: record.id,
      reason: error.message,
    })
    return 'done'
  }
}

async function settle(
  record: ScheduledSend,
  options: ScheduledSendOptions,
  state: 'sent' | 'failed',
  error: string | null,
): Promise<void> {
  const doneAt = new Date(options.now()).toISOString()
  await options.repositories.scheduledSends.update({ id: record.id }, (current) =>
    current.state === 'scheduled' ? { ...current, state, doneAt, error } : current,
  )
}
