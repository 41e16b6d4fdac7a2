import type { DeliveryMode, DeliveryState, NotificationHistory } from '../storage/records.js'

/**
 * The one state of a restock notice, which the restock code reasons with:
 * - `queued`: e-mails to send, no run has started; `delivering`: a run has settled batches;
 * - `sent` / `failed`: e-mail delivery complete, somebody / nobody reached;
 * - `recorded`: no e-mail provider, the subscribers were only marked notified (§4.8) and its LINE
 *   recipients, if any, pushed;
 * - `legacy-sent` / `legacy-failed`: written before delivery existed (no delivery fields).
 * It is stored as §2.3's `status` plus `deliveryState` and `deliveryMode`, so that the records
 * and the answers keep their documented fields; this file is the only mapping between them.
 * A notice sent without an e-mail provider whose LINE recipients are pushed runs `queued` →
 * `delivering` → `recorded` with `deliveryMode: 'record-only'` all the way (`isEmailed` false).
 */
export type NoticeState =
  'queued' | 'delivering' | 'sent' | 'failed' | 'recorded' | 'legacy-sent' | 'legacy-failed'

type StoredState = Pick<NotificationHistory, 'status' | 'deliveryState' | 'deliveryMode'>

/** The state a stored record is in. */
export function noticeStateOf(record: StoredState): NoticeState {
  if (record.deliveryState === undefined) {
    return record.status === 'failed' ? 'legacy-failed' : 'legacy-sent'
  }
  if (record.deliveryState !== 'complete') return record.deliveryState
  if (record.deliveryMode === 'record-only') return 'recorded'
  return record.status === 'failed' ? 'failed' : 'sent'
}

/** Whether a notice's e-mail recipients are e-mailed (false: only recorded, no provider). */
export function isEmailed(record: Pick<NotificationHistory, 'deliveryMode'>): boolean {
  return record.deliveryMode !== 'record-only'
}

/**
 * The stored fields of `state` (a legacy state keeps a record as it is: never written).
 * `emailed`: false for a notice without an e-mail provider whose LINE pushes run. Default: true.
 */
export function storedState(
  state: Exclude<NoticeState, `legacy-${string}`>,
  emailed = true,
): Required<StoredState> {
  const deliveryMode: DeliveryMode = state === 'recorded' || !emailed ? 'record-only' : 'email'
  const deliveryState: DeliveryState =
    state === 'queued' || state === 'delivering' ? state : 'complete'
  return { status: state === 'failed' ? 'failed' : 'sent', deliveryState, deliveryMode }
}

/** Whether a run of the background delivery still has work: queued or delivering. */
export function isRunning(state: NoticeState): state is 'queued' | 'delivering' {
  return state === 'queued' || state === 'delivering'
}

/** The answers' fields of a stored record (§2.3 `status`, `deliveryState`, `deliveryMode`). */
export function answerFieldsOf(record: StoredState): {
  status: 'sent' | 'failed'
  deliveryState: DeliveryState
  deliveryMode: DeliveryMode | null
} {
  const state = noticeStateOf(record)
  if (state === 'legacy-sent' || state === 'legacy-failed') {
    return {
      status: state === 'legacy-failed' ? 'failed' : 'sent',
      deliveryState: 'complete',
      deliveryMode: null,
    }
  }
  const { status, deliveryState, deliveryMode } = storedState(state, isEmailed(record))
  return { status, deliveryState, deliveryMode }
}
