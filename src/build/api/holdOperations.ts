import { z } from 'zod'
import { HOLD_ENDED } from '../../lib/reservations/holdClaim.js'
import {
  failure,
  METHOD_NOT_ALLOWED,
  RATE_LIMITED,
  type ApiOperation,
  type ResponseSpec,
  type Responses,
} from './operationSpec.js'
import * as answers from './responseSchemas.js'

/** The お取り置き link of a restock e-mail (reservations/holdClaim.ts). */

const asPage = (spec: ResponseSpec): ResponseSpec => ({ ...spec, alsoHtml: true })

function holdResponses(success: Responses): Responses {
  return {
    ...success,
    400: asPage(
      failure(
        'The token is missing, or (POST) the name is.',
        'Invalid hold link',
        'お名前を入力してください。',
      ),
    ),
    403: asPage(
      failure(
        'The link is forged or altered, or names no hold of this shop.',
        'Hold link signature is not valid',
      ),
    ),
    405: asPage(METHOD_NOT_ALLOWED),
    410: asPage(
      failure(
        'The hold ended unclaimed (or its sign-up is gone); the page offers to sign up again.',
        HOLD_ENDED,
      ),
    ),
    429: RATE_LIMITED,
    500: asPage(failure('Unexpected failure.', 'Internal server error')),
    503: asPage(
      failure('`UNSUBSCRIBE_SECRET` is not set.', 'Hold link is not available right now'),
    ),
  }
}

const token = z.string().optional().meta({ description: 'The signed token of the link.' })

export const HOLD_OPERATIONS: ApiOperation[] = [
  {
    method: 'get',
    route: 'reservationHold',
    operationId: 'showHoldPage',
    tag: 'Storefront',
    summary: 'お取り置き page (the hold link of a restock e-mail)',
    description:
      'An HTML page with the product (and its variant), the end of the hold in JST and one button that POSTs the same token with the shopper’s name. A hold already claimed shows its reservation. Changes nothing (mail scanners follow links).',
    query: z.object({ token }),
    responses: holdResponses({ 200: { description: 'The hold page.', body: 'html' } }),
  },
  {
    method: 'post',
    route: 'reservationHold',
    operationId: 'claimHold',
    tag: 'Storefront',
    summary: 'Turn a held unit into a reservation',
    description:
      'While the hold is open: the unit held for the sign-up becomes a reservation (`res_…`, quantity 1, `source: "restock-hold"`, the sign-up’s e-mail, the name given), the stock goes down by one (one compare-and-swap with the hold), the sign-up is `notified`, and the usual confirmation e-mail and team-chat message go out. A claim repeated (or 20 at once) answers the same reservation (`alreadyReserved: true`). The token is in the query or in an urlencoded body. Answers the done page, or JSON when `Accept` asks for JSON only.',
    query: z.object({ token }),
    formBody: z.object({ token: z.string().optional(), name: z.string() }),
    responses: holdResponses({
      200: {
        description: 'Reserved: the done page, or JSON for `Accept: application/json`.',
        body: answers.holdClaimAnswer,
        alsoHtml: true,
        examples: {
          success: {
            success: true,
            reservationId: 'res_3b1f0c9e-8a52-4d7e-9c41-5f2a6b7d8e90',
            alreadyReserved: false,
          },
        },
      },
    }),
  },
]
