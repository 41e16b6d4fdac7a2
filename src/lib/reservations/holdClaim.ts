import { SYSTEM_ACTORS } from '../actors.js'
import { auditRecorder } from '../audit/auditTrail.js'
import type { AppConfig } from '../config.js'
import {
  InvalidInputError,
  InvalidSignatureError,
  LinkExpiredError,
  NotConfiguredError,
  TryAgainLaterError,
} from '../errors.js'
import type { HoldForm } from '../forms/customerForm.js'
import { formatJst } from '../notifiers/jstTime.js'
import { pageShopOf } from '../pages/htmlPage.js'
import { findTarget, productUrl, targetKey, targetTitle } from '../productCatalogue.js'
import { verifyHoldToken, type HoldRef } from '../restock/holdLink.js'
import type { Services } from '../services.js'
import { newReservationId } from '../storage/blobLayout.js'
import { lineUserHash } from '../storage/lineContacts.js'
import type { NotifySubscription, Reservation } from '../storage/records.js'
import { holdsOf, withHoldClaimed } from '../storage/restockHolds.js'
import type { RestockHold } from '../storage/stockRecords.js'
import { wantsJson } from '../subscriptions/unsubscribeRequest.js'
import { announceReservation } from './createReservation.js'
import {
  heldReservedPage,
  holdEndedPage,
  holdErrorPage,
  holdPage,
  type HoldView,
} from './holdPages.js'
import { productUnits } from './productUnits.js'

/**
 * GET/POST /reservation/hold: the お取り置き link of a restock e-mail. GET shows the product
 * (with its variant), the hold's end in JST and one button, and changes nothing (mail scanners
 * follow links). POST with the shopper's name claims the hold: one compare-and-swap of the
 * product's stock record marks the hold claimed by a new reservation id and takes the unit
 * (quantity − 1); then the reservation (`res_…`, quantity 1, `source: "restock-hold"`, the
 * sign-up's e-mail) is stored and announced like one from the form. Of any number of claims of one
 * link exactly one wins the swap; every other (and any later one) answers that reservation.
 * A forged, altered or foreign link answers 403; an ended hold 410 (the page offers to sign up
 * again).
 */

/** A failure as the Japanese page, unless the caller asked for JSON. */
export function holdErrorAnswer(
  req: Request,
  status: number,
  config: AppConfig | null,
): Response | null {
  return wantsJson(req) ? null : holdErrorPage(status, pageShopOf(config))
}

export interface HoldInput {
  req: Request
  form: HoldForm | undefined
  services: Pick<
    Services,
    'repositories' | 'notifiers' | 'config' | 'log' | 'context' | 'now' | 'auditTrail'
  >
}

/** The JSON answer of a claim. */
export interface HoldClaimAnswer {
  reservationId: string
  /** The hold had become this reservation before. */
  alreadyReserved: boolean
}

/** The 410 text of a hold that ended unclaimed. */
export const HOLD_ENDED = 'Hold has ended'

export async function answerHold(input: HoldInput): Promise<Response | HoldClaimAnswer> {
  const { req, services } = input
  const { config, log, now } = services
  const secret = config.unsubscribeSecret
  if (!secret) {
    log.error('hold.misconfigured', new Error('UNSUBSCRIBE_SECRET is not set'))
    throw new NotConfiguredError('Hold link is not available right now')
  }
  const token = new URL(req.url).searchParams.get('token') || input.form?.token || null
  const check = verifyHoldToken(token, secret, now())
  if (!check.ok && check.reason !== 'expired') {
    log.warn('hold.rejected', { reason: check.reason })
    if (check.reason === 'missing') throw new InvalidInputError('Invalid hold link')
    throw new InvalidSignatureError('Hold link signature is not valid')
  }
  const ref = check.ref
  const record = ref ? await services.repositories.stock.get(ref.target) : null
  const hold = ref && record ? (holdsOf(record)[ref.holdId] ?? null) : null
  const catalogue = ref ? findTarget(ref.target) : null
  if (!ref || !hold || !catalogue) {
    if (!check.ok) return ended(input, ref)
    // why: a genuine link naming no hold here was made for another shop or deploy
    log.warn('hold.rejected', { reason: 'foreign' })
    throw new InvalidSignatureError('Hold link signature is not valid')
  }
  const title = targetTitle(ref.target)
  if (hold.state === 'claimed' && hold.reservationId) {
    return reserved(input, ref, hold, hold.reservationId, input.form?.name ?? null, true)
  }
  if (!check.ok || hold.state !== 'open' || !hold.endsAt || Date.parse(hold.endsAt) <= now()) {
    return ended(input, ref)
  }
  const subscription = await services.repositories.subscriptions.get({
    id: hold.subscriptionId,
    productSlug: ref.target.productSlug,
  })
  if (req.method === 'GET') {
    return holdPage(
      {
        productTitle: title,
        endsAt: formatJst(hold.endsAt),
        ...(await lineViewOf(subscription, services)),
      },
      token ?? '',
      pageShopOf(config),
    )
  }
  const name = input.form?.name
  if (!name) throw new InvalidInputError('お名前を入力してください。')
  // why: the sign-up is gone (erased, deleted): nobody's e-mail to reserve for
  if (!subscription) return ended(input, ref)
  const reservationId = newReservationId()
  const { after } = await services.repositories.stock.change(ref.target, (current) =>
    withHoldClaimed(current, ref.holdId, reservationId, now()),
  )
  const settled = holdsOf(after)[ref.holdId]
  if (settled?.state !== 'claimed' || !settled.reservationId) return ended(input, ref)
  const won = settled.reservationId === reservationId
  if (won) {
    log.info('hold.claimed', { ...ref.target, holdId: ref.holdId, reservationId })
    await auditRecorder({
      repository: services.auditTrail,
      actor: SYSTEM_ACTORS.customer,
      log,
      now,
    }).record([
      {
        action: 'hold-claim',
        record: {
          type: 'product',
          id: targetKey(ref.target),
          productSlug: ref.target.productSlug,
        },
        from: ref.holdId,
        to: reservationId,
      },
    ])
  }
  return reserved(input, ref, settled, settled.reservationId, name, !won, subscription)
}

/**
 * Answers the reservation a claimed hold names, storing it first when it is not stored yet (the
 * winner of the claim, or a later claim after the winner's request died between its writes).
 * Without a name (a GET) a missing reservation cannot be made: the page asks for the name again.
 */
async function reserved(
  input: HoldInput,
  ref: HoldRef,
  hold: RestockHold,
  reservationId: string,
  name: string | null,
  alreadyReserved: boolean,
  /** The sign-up, when the caller read it already. */
  known: NotifySubscription | null = null,
): Promise<Response | HoldClaimAnswer> {
  const { services, req } = input
  const { reservations, subscriptions } = services.repositories
  const productSlug = ref.target.productSlug
  const title = targetTitle(ref.target)
  let stored = await reservations.get({ id: reservationId, productSlug })
  if (!stored) {
    const subscription =
      known ?? (await subscriptions.get({ id: hold.subscriptionId, productSlug }))
    if (!name || !subscription) {
      if (req.method === 'GET' && hold.endsAt) {
        return holdPage(
          {
            productTitle: title,
            endsAt: formatJst(hold.endsAt),
            ...(await lineViewOf(subscription, services)),
          },
          new URL(req.url).searchParams.get('token') ?? '',
          pageShopOf(services.config),
        )
      }
      if (!name) throw new InvalidInputError('お名前を入力してください。')
      return ended(input, ref)
    }
    const reservation: Reservation = {
      id: reservationId,
      name,
      email: subscription.email,
      ...(subscription.channel === 'line' && subscription.lineUserId
        ? { email: '', channel: 'line' as const, lineUserId: subscription.lineUserId }
        : {}),
      productSlug,
      ...(ref.target.variant === undefined ? {} : { variant: ref.target.variant }),
      status: 'pending',
      notes: '',
      createdAt: new Date(services.now()).toISOString(),
      respondedAt: null,
      quantity: 1,
      source: 'restock-hold',
    }
    const catalogue = findTarget(ref.target)
    if (!catalogue) throw new TryAgainLaterError('The product is no longer in the catalogue')
    // why: the unit is the held one; a capped product's ledger follows the record, never refuses
    const units = productUnits(catalogue, services)
    await units?.follow(reservation, reservation.id)
    if (await reservations.create(reservation, reservation)) {
      stored = reservation
      services.log.info('reservation.created', {
        reservationId,
        productSlug,
        ...(ref.target.variant === undefined ? {} : { variant: ref.target.variant }),
        quantity: 1,
        source: 'restock-hold',
      })
      await subscriptions.update(subscription, (current) =>
        current.status === 'pending'
          ? { ...current, status: 'notified', notifiedAt: reservation.createdAt }
          : current,
      )
      await announceReservation(reservation, catalogue, services, null)
    }
  }
  if (wantsJson(req)) return { reservationId, alreadyReserved }
  return heldReservedPage(
    { productTitle: title, ...(await lineViewOf(stored, services)) },
    reservationId,
    alreadyReserved,
    pageShopOf(services.config),
  )
}

/**
 * Whether the sign-up (or its reservation) hears in LINE — its messages are pushed there, not
 * e-mailed — and whether LINE said the shopper does not have the official account as a friend
 * (then nothing can be pushed until they add it).
 */
async function lineViewOf(
  record: Pick<NotifySubscription, 'channel' | 'lineUserId'> | null,
  services: Pick<Services, 'repositories'>,
): Promise<Pick<HoldView, 'line' | 'notFriend'>> {
  if (record?.channel !== 'line') return { line: false }
  const contact = record.lineUserId
    ? await services.repositories.lineContacts.get(lineUserHash(record.lineUserId))
    : null
  return contact?.friend === false ? { line: true, notFriend: true } : { line: true }
}

function ended(input: HoldInput, ref: HoldRef | null): Response {
  const { config, log } = input.services
  log.info('hold.ended_link', ref ? { ...ref.target, holdId: ref.holdId } : {})
  if (wantsJson(input.req)) {
    // why: the JSON caller gets the documented error shape (the wrapper maps it)
    throw new LinkExpiredError(HOLD_ENDED)
  }
  return holdEndedPage(
    ref ? { productTitle: targetTitle(ref.target) } : null,
    ref ? productUrl(ref.target.productSlug, config.storefrontUrl) : null,
    pageShopOf(config),
  )
}
