import type { AuditRecorder } from '../audit/auditTrail.js'
import { mapWithConcurrency } from '../concurrency.js'
import { InvalidInputError } from '../errors.js'
import type { Logger } from '../log.js'
import { lineUserHash, type LineContact } from '../storage/lineContacts.js'
import type { Repositories } from '../storage/repositories.js'

/**
 * POST /api/line-webhook after its signature was checked (signing/lineSignature.ts): `unfollow`
 * (the user blocked the shop's official account) ends every waiting LINE sign-up of that user and
 * marks them unreachable, so they are never messaged again until they sign up again; `follow`
 * (added as a friend, or unblocked) marks a user we know reachable. Every other event is
 * answered and ignored. A user we never saw sign up leaves nothing behind. LINE's signature
 * carries no time, so a signed body could be sent again later: each user's contact keeps the
 * time of the newest follow or unfollow applied (`lastEventAt`, the event's own `timestamp`), and
 * an event no newer than it (a replay, or a redelivery overtaken by a later event) is ignored.
 */

export interface LineWebhookDeps {
  repositories: Pick<Repositories, 'lineContacts' | 'subscriptions'>
  audit: AuditRecorder
  log: Logger
  now: () => number
}

export interface LineWebhookOutcome {
  /** Events in the body. */
  received: number
  /** `follow` and `unfollow` events of users who signed up with LINE. */
  handled: number
  /** Waiting sign-ups an unfollow ended. */
  unsubscribed: number
}

interface LineEvent {
  type: string
  userId: string | null
  /** When LINE says it happened (ms), or null when the body does not say. */
  timestamp: number | null
}

/** The events of the body: LINE's `{destination, events: [{type, source: {userId}}]}`. */
function eventsOf(rawBody: string): LineEvent[] {
  let body: unknown
  try {
    body = JSON.parse(rawBody)
  } catch {
    throw new InvalidInputError('Invalid JSON body')
  }
  const events = (body as { events?: unknown } | null)?.events
  if (!Array.isArray(events)) throw new InvalidInputError('events must be an array')
  return events.map((event: unknown) => {
    const { type, source, timestamp } = (event ?? {}) as {
      type?: unknown
      source?: { userId?: unknown }
      timestamp?: unknown
    }
    const userId = source?.userId
    return {
      type: typeof type === 'string' ? type : '',
      userId: typeof userId === 'string' && userId.length > 0 ? userId : null,
      timestamp: Number.isSafeInteger(timestamp) ? (timestamp as number) : null,
    }
  })
}

export async function handleLineWebhook(
  rawBody: string,
  deps: LineWebhookDeps,
): Promise<LineWebhookOutcome> {
  const events = eventsOf(rawBody)
  let handled = 0
  let unsubscribed = 0
  for (const event of events) {
    if (!event.userId || (event.type !== 'follow' && event.type !== 'unfollow')) continue
    // why: without its time an event cannot be ordered against the ones applied: not applied
    if (event.timestamp === null) continue
    const friend = event.type === 'follow'
    const contact = await markFriend(deps, lineUserHash(event.userId), friend, event.timestamp)
    if (!contact) continue
    handled += 1
    if (!friend) unsubscribed += await endSignups(deps, contact, event.userId)
  }
  // why: counts only; a LINE user id is personal data and never logged
  deps.log.info('line.webhook.received', { events: events.length, handled, unsubscribed })
  return { received: events.length, handled, unsubscribed }
}

/**
 * Sets the friend flag of a known user from an event of time `eventAt`; null (nothing stored)
 * for a user we do not know, or for an event no newer than the last one applied.
 */
async function markFriend(
  deps: LineWebhookDeps,
  hash: string,
  friend: boolean,
  eventAt: number,
): Promise<LineContact | null> {
  const { lineContacts } = deps.repositories
  if (!(await lineContacts.get(hash))) return null
  const at = new Date(deps.now()).toISOString()
  let applied = false
  const stored = await lineContacts.change(hash, (current) => {
    applied = current === null || eventAt > (current.lastEventAt ?? Number.NEGATIVE_INFINITY)
    if (!applied) return current!
    return {
      ...(current ?? { hash, subscriptions: [] }),
      friend,
      friendSeenAt: at,
      lastEventAt: eventAt,
      updatedAt: at,
    }
  })
  if (!applied) deps.log.info('line.webhook.stale_event', { reason: 'not newer than the last' })
  return applied ? stored : null
}

/** Ends the user's waiting LINE sign-ups (compare-and-swap each); answers how many. */
async function endSignups(
  deps: LineWebhookDeps,
  contact: LineContact,
  lineUserId: string,
): Promise<number> {
  const at = new Date(deps.now()).toISOString()
  const ended = await mapWithConcurrency(contact.subscriptions, 5, async (ref) => {
    let changed = false
    await deps.repositories.subscriptions.update(ref, (current) => {
      changed =
        current.status === 'pending' &&
        current.channel === 'line' &&
        current.lineUserId === lineUserId
      return changed ? { ...current, status: 'unsubscribed', unsubscribedAt: at } : current
    })
    return changed ? ref : null
  })
  const done = ended.filter((ref) => ref !== null)
  await deps.audit.record(
    done.map(({ id, productSlug }) => ({
      action: 'status' as const,
      record: { type: 'subscription' as const, id, productSlug },
      from: 'pending',
      to: 'unsubscribed',
    })),
  )
  return done.length
}
