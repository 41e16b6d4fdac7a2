import { z } from '../../generated/zod.js'
import {
  InvalidInputError,
  InvalidSignatureError,
  NotConfiguredError,
  NotFoundError,
} from '../errors.js'
import {
  reservationStatusEmail,
  selfCancelTeamChatMessage,
} from '../messages/reservationStatusMessages.js'
import { dispatchNotifications } from '../notifiers/dispatch.js'
import { asShown, productUrl, targetOfRecord } from '../productCatalogue.js'
import type { AppConfig } from '../config.js'
import { pageShopOf } from '../pages/htmlPage.js'
import type { Services } from '../services.js'
import type { Reservation } from '../storage/records.js'
import { verifyManageToken } from './manageLink.js'
import {
  cancelledPage,
  isCancellableOnline,
  manageErrorPage,
  notCancellablePage,
  reservationPage,
  type ManageView,
} from './managePages.js'
import { isLineReservation, lineDepsOf, pushReservationMessage } from './reservationLine.js'
import { productUnits } from './productUnits.js'

/** The form body of the page's cancel button. */
export const manageForm = z.object({ token: z.string().optional() })

/** A failure as the Japanese page (the endpoint's `errorPage`). */
export function manageFailurePage(
  _req: Request,
  status: number,
  config: AppConfig | null,
): Response {
  return manageErrorPage(status, pageShopOf(config))
}

export interface ManageInput {
  req: Request
  form: z.output<typeof manageForm> | undefined
  services: Pick<
    Services,
    'repositories' | 'notifiers' | 'config' | 'log' | 'context' | 'audit' | 'now'
  >
}

/**
 * GET/POST /reservation/manage: the page a reservation e-mail links to with a signed token
 * (manageLink.ts). GET shows the reservation and changes nothing (mail scanners follow links);
 * POST cancels it when it is `pending` or `confirmed` (compare-and-swap), frees its units, tells
 * the team chat, e-mails the customer a receipt, and records the link as used so that it never
 * acts again.
 */
export async function answerManage(input: ManageInput): Promise<Response> {
  const { req } = input
  const { config, log, context } = input.services
  const { now } = input.services
  const secret = config.reservationLinkSecret
  if (!secret) {
    log.error('reservation.manage_misconfigured', new Error('RESERVATION_LINK_SECRET is not set'))
    throw new NotConfiguredError('Reservation links are not available right now')
  }
  const token = new URL(req.url).searchParams.get('token') || input.form?.token || null
  const check = verifyManageToken(token, secret, now())
  if (!check.ok) {
    log.warn('reservation.manage_rejected', { reason: token ? check.reason : 'missing token' })
    if (check.reason === 'malformed') throw new InvalidInputError('Invalid reservation link')
    throw new InvalidSignatureError('Reservation link is not valid')
  }
  const { link } = check
  const { reservations } = input.services.repositories
  const stored = await reservations.get(link)
  if (!stored) throw new NotFoundError('Reservation not found')
  const target = targetOfRecord(stored)
  const product = target && asShown(target)
  const viewOf = (reservation: Reservation): ManageView => ({
    reservation,
    productTitle: product?.title ?? reservation.productSlug,
    releaseDate: product?.releaseDate ?? null,
    shop: pageShopOf(config),
  })
  if (req.method === 'GET') return reservationPage(viewOf(stored), token ?? '')

  let applied = false as boolean
  let from: string = stored.status
  const stamp = new Date(now()).toISOString()
  const updated = await reservations.update(link, (record) => {
    applied = false
    if (record.usedManageLinks?.includes(link.jti) || !isCancellableOnline(record.status)) {
      return record
    }
    applied = true
    from = record.status
    return {
      ...record,
      status: 'cancelled',
      statusChangedAt: stamp,
      respondedAt: record.respondedAt ?? stamp,
      cancelledBy: 'customer',
      usedManageLinks: [...(record.usedManageLinks ?? []), link.jti],
    }
  })
  if (!updated) throw new NotFoundError('Reservation not found')
  if (!applied) {
    if (updated.status === 'cancelled') return cancelledPage(viewOf(updated), true)
    // why: replay protection: a used link never cancels again, even after staff restored it
    if (updated.usedManageLinks?.includes(link.jti)) {
      log.warn('reservation.manage_rejected', { reason: 'used link', reservationId: updated.id })
      return manageErrorPage(409, pageShopOf(config))
    }
    return notCancellablePage(viewOf(updated))
  }
  await input.services.audit.record([
    {
      action: 'status',
      record: { type: 'reservation', id: updated.id, productSlug: updated.productSlug },
      from,
      to: 'cancelled',
    },
  ])
  log.info('reservation.cancelled_by_customer', {
    reservationId: updated.id,
    productSlug: updated.productSlug,
    quantity: updated.quantity ?? 1,
  })
  if (target && product) {
    const units = productUnits(target, input.services)
    await units?.follow(updated, updated.id)
    const { notifiers } = input.services
    const receipt = reservationStatusEmail({
      reservation: updated,
      product,
      productUrl: productUrl(product.slug, config.storefrontUrl),
      status: 'cancelled',
      sharedNote: null,
      manageUrl: null,
      byCustomer: true,
    })
    dispatchNotifications(context, log, [
      () =>
        notifiers.teamchatReservation.send(
          selfCancelTeamChatMessage({ reservation: updated, product }).slackText,
        ),
      () => {
        // why: the same key as a staff change of the same moment: one message per cancel
        const key = `reservation-status/${updated.id}/cancelled/${stamp}`
        return isLineReservation(updated)
          ? pushReservationMessage(updated, receipt, key, lineDepsOf(input.services))
          : notifiers.mailer.send({ to: updated.email, ...receipt }, { idempotencyKey: key })
      },
    ])
  }
  return cancelledPage(viewOf(updated), false)
}
