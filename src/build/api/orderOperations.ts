import { EMAIL_INVALID, EMAIL_REQUIRED } from '../../lib/compliance/personRequest.js'
import { notConfiguredText } from '../../lib/endpoints/signedWebhook.js'
import {
  CURRENCY_INVALID,
  ORDER_ID_REQUIRED,
  ORDER_ITEM_INVALID,
  ORDER_ITEMS_EMPTY,
  ORDER_ITEMS_REQUIRED,
  ORDER_ITEMS_TOO_MANY,
  ORDERED_AT_INVALID,
  orderWebhookSchema,
  TOTAL_INVALID,
} from '../../lib/orders/orderSchemas.js'
import { failure, jsonPostErrors, mergeResponses, type ApiOperation } from './operationSpec.js'
import * as answers from './responseSchemas.js'

/** The order webhook: a checkout tells the service what a shopper bought. */
export const ORDER_OPERATIONS: ApiOperation[] = [
  {
    method: 'post',
    route: 'orderWebhook',
    operationId: 'receiveOrderWebhook',
    tag: 'Service',
    summary: 'Signed order webhook for a checkout or POS: closes sign-ups, counts notices’ orders',
    description:
      'Header `X-Order-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with `ORDER_WEBHOOK_SECRET` (the stock webhook’s scheme): compared in constant time, the timestamp within 5 minutes of the server’s clock, several `v1` allowed while a secret is rotated; checked before the body is parsed. Items name a product by `productSlug` or by the `sku:` of its front matter. For each product bought: the buyer’s pending sign-ups are closed (`unsubscribed`, `unsubscribeReason: "purchased"`), and the order is counted for the latest restock notice that reached the buyer’s address for it within `ATTRIBUTION_DAYS` (default 7) before `at` (default: now), with whether the buyer followed its link; `total` (shared over the order’s units) and `currency` (default JPY) make its revenue. The overview shows per notice orders, units, revenue and orders per e-mail. The address is kept only as the hash the suppression list uses. An order `id` seen before (or being applied right now) answers `duplicate: true` and changes nothing. See README for a curl example and how to point a checkout at it.',
    body: {
      schema: orderWebhookSchema,
      view: 'input',
      example: {
        id: 'order_20261124_0042',
        email: 'hanako@example.com',
        items: [{ sku: 'SKU-1001', quantity: 1 }],
        total: 6600,
        currency: 'JPY',
        at: '2026-11-24T10:30:00+09:00',
      },
    },
    responses: mergeResponses(
      {
        200: {
          description: 'Applied, or a duplicate (nothing changed).',
          body: answers.orderWebhookAnswer,
          examples: {
            applied: {
              success: true,
              duplicate: false,
              products: [
                {
                  productSlug: 'hario-v60-dripper',
                  quantity: 1,
                  closedSignups: 0,
                  notificationId: 'notif_6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
                  clicked: true,
                },
              ],
            },
            duplicate: { success: true, duplicate: true },
          },
        },
        400: failure(
          'A signed body without an order id, an address, or 1–500 well-formed items, or with a bad total, currency or time.',
          ORDER_ID_REQUIRED,
          EMAIL_REQUIRED,
          EMAIL_INVALID,
          ORDER_ITEMS_REQUIRED,
          ORDER_ITEMS_EMPTY,
          ORDER_ITEMS_TOO_MANY,
          ORDER_ITEM_INVALID,
          TOTAL_INVALID,
          CURRENCY_INVALID,
          ORDERED_AT_INVALID,
        ),
        401: failure('Bad, missing or stale signature (nothing is read).', 'Invalid signature'),
        503: failure('`ORDER_WEBHOOK_SECRET` is not set.', notConfiguredText('order')),
      },
      jsonPostErrors(),
    ),
  },
]
