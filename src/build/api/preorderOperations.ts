import { z } from 'zod'
import { findReservationSchema } from '../../lib/reservations/preorderOverview.js'
import { UNUSABLE_ID_MESSAGE } from '../../lib/storage/recordIds.js'
import { EXAMPLE_RESERVATION } from './apiExamples.js'
import { adminErrors, failure, mergeResponses, type ApiOperation } from './operationSpec.js'
import * as answers from './responseSchemas.js'

/** The staff side of pre-orders: find a reservation by its id, units and window per product. */
export const PREORDER_OPERATIONS: ApiOperation[] = [
  {
    method: 'post',
    route: 'adminReservationsFind',
    operationId: 'findReservation',
    tag: 'Admin',
    summary: 'Find a reservation by its id',
    description:
      'The id the customer quotes (it is in every reservation e-mail); active or archived, any product.',
    body: {
      schema: findReservationSchema,
      view: 'input',
      example: { id: EXAMPLE_RESERVATION.id },
    },
    responses: mergeResponses(
      {
        200: {
          description: 'The reservation.',
          body: answers.reservationFound,
          examples: { found: { success: true, reservation: EXAMPLE_RESERVATION } },
        },
        400: failure('No usable id.', 'id is required', UNUSABLE_ID_MESSAGE),
        404: failure('No reservation has this id.', 'Reservation not found'),
      },
      adminErrors(),
    ),
  },
  {
    method: 'post',
    route: 'adminReservationsProducts',
    operationId: 'listPreorderProducts',
    tag: 'Admin',
    summary: 'Units and window of every pre-order product',
    description:
      'Every product with a cap, a window or a release date in its front matter: the cap, the units held by reservations that are not cancelled (archived ones count), the units left, and where the window stands now.',
    body: { schema: z.object({}), view: 'input', example: {} },
    responses: mergeResponses(
      {
        200: {
          description: 'The products.',
          body: answers.preorderProducts,
          examples: {
            products: {
              success: true,
              products: [
                {
                  productSlug: 'kiyomizu-matcha-chawan',
                  title: '京焼 Kiyomizu 抹茶碗 若草',
                  reservationLimit: 5,
                  heldUnits: 2,
                  remaining: 3,
                  maxPerReservation: 2,
                  opensAt: null,
                  closesAt: null,
                  releaseDate: '2027-01-20',
                  window: 'open',
                },
              ],
            },
          },
        },
      },
      adminErrors(),
    ),
  },
]
