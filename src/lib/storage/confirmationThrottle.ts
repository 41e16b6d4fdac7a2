import type { Store } from '@netlify/blobs'
import { confirmationSendKey } from './blobLayout.js'
import { emailHash } from './emailHash.js'
import type { ProductRecordRef } from './records.js'

/**
 * The double opt-in state of one address, `confirmation-sends/{emailHash}`, changed only by
 * compare-and-swap: its sign-ups that wait for confirmation, when the last confirmation e-mail
 * went and when a confirmation link was last used. One e-mail's link confirms every sign-up of
 * its address (subscriptions/confirmSignup.ts), so a sign-up that comes while an e-mail of the
 * last `intervalMs` is still unused needs no e-mail of its own: it joins that link.
 */

/** A sign-up of the address that waits for its confirmation. */
export interface PendingConfirmation extends ProductRecordRef {
  /** The variant signed up for (its id); absent for a product without variants. */
  variant?: string
  /** When it was noted (ISO). */
  at: string
}

interface AddressState {
  lastSentAt?: string
  lastUsedAt?: string
  pending?: PendingConfirmation[]
}

/** The key of an address's blob (erase deletes it). */
export function confirmationThrottleKey(email: string): string {
  return confirmationSendKey(emailHash(email))
}

async function read(store: Store, key: string) {
  const found = await store.getWithMetadata(key, { type: 'json' })
  const data = found?.data as AddressState | null | undefined
  // why: a damaged blob holds nothing and is replaced
  const state: AddressState = data && typeof data === 'object' ? data : {}
  const pending = Array.isArray(state.pending)
    ? state.pending.filter(
        (item) =>
          typeof item?.id === 'string' &&
          typeof item.productSlug === 'string' &&
          typeof item.at === 'string',
      )
    : []
  return { state: { ...state, pending }, etag: found?.etag ?? null }
}

async function change(
  store: Store,
  email: string,
  next: (state: AddressState & { pending: PendingConfirmation[] }) => AddressState,
): Promise<AddressState & { pending: PendingConfirmation[] }> {
  const key = confirmationThrottleKey(email)
  for (;;) {
    const { state, etag } = await read(store, key)
    const written = { ...next(state) }
    const condition = etag ? { onlyIfMatch: etag } : { onlyIfNew: true as const }
    if ((await store.setJSON(key, written, condition)).modified) {
      return { ...written, pending: written.pending ?? [] }
    }
  }
}

export interface NotedSignup {
  /** True when this sign-up sends a confirmation e-mail now (and its time is recorded). */
  send: boolean
  /** Every sign-up of the address that waits for confirmation, this one included, oldest first. */
  pending: PendingConfirmation[]
}

/**
 * Notes a sign-up that waits for confirmation. It sends an e-mail unless one went to the address
 * in the last `intervalMs` and its link has not been used since; sign-ups older than `keepMs`
 * are forgotten (their subscriptions are deleted unconfirmed).
 */
export async function noteUnconfirmedSignup(
  store: Store,
  email: string,
  signup: ProductRecordRef & { variant?: string },
  options: { now: number; intervalMs: number; keepMs: number },
): Promise<NotedSignup> {
  const { now } = options
  let send = false
  const written = await change(store, email, (state) => {
    const pending = state.pending.filter(
      (item) => item.id !== signup.id && now - Date.parse(item.at) < options.keepMs,
    )
    pending.push({
      id: signup.id,
      productSlug: signup.productSlug,
      ...(signup.variant === undefined ? {} : { variant: signup.variant }),
      at: new Date(now).toISOString(),
    })
    const last = state.lastSentAt ? Date.parse(state.lastSentAt) : null
    const used =
      state.lastUsedAt !== undefined && last !== null && Date.parse(state.lastUsedAt) >= last
    send = last === null || now - last >= options.intervalMs || used
    return {
      ...state,
      pending,
      ...(send ? { lastSentAt: new Date(now).toISOString() } : {}),
    }
  })
  return { send, pending: written.pending }
}

/** The sign-ups of the address that wait for confirmation (none when it has no blob). */
export async function pendingConfirmations(
  store: Store,
  email: string,
): Promise<PendingConfirmation[]> {
  return (await read(store, confirmationThrottleKey(email))).state.pending
}

/** Forgets a sign-up that waits no more (deleted unconfirmed by the retention purge). */
export async function dropPendingConfirmation(
  store: Store,
  email: string,
  subscriptionId: string,
): Promise<void> {
  if (!(await pendingConfirmations(store, email)).some((item) => item.id === subscriptionId)) return
  await change(store, email, (state) => ({
    ...state,
    pending: state.pending.filter((item) => item.id !== subscriptionId),
  }))
}

/** After a link of the address was used: forgets the sign-ups it confirmed, records the use. */
export async function settleConfirmations(
  store: Store,
  email: string,
  confirmedIds: readonly string[],
  now: number,
): Promise<void> {
  const done = new Set(confirmedIds)
  await change(store, email, (state) => ({
    ...state,
    pending: state.pending.filter((item) => !done.has(item.id)),
    lastUsedAt: new Date(now).toISOString(),
  }))
}
