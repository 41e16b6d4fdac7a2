import { z } from 'zod'
import { UNUSABLE_ID_MESSAGE } from '../../lib/storage/recordIds.js'
import { autoNoticeSchema } from '../../lib/stock/autoNotice.js'
import {
  ADMIN_ITEM_INVALID,
  adminStockSchema,
  EVENT_ID_REQUIRED,
  ITEMS_EMPTY,
  ITEMS_REQUIRED,
  ITEMS_TOO_MANY,
  stockWebhookSchema,
  WEBHOOK_ITEM_INVALID,
} from '../../lib/stock/stockSchemas.js'
import * as answers from './responseSchemas.js'
import {
  adminErrors,
  failure,
  jsonPostErrors,
  mergeResponses,
  type ApiOperation,
} from './operationSpec.js'

/**
 * Stock and automatic restock notices: the stock list, the three ways stock comes in
 * (admin, signed webhook, scheduled feed) and the automatic-notice settings.
 */

const AUTO = {
  enabled: true,
  emailTitle: '{product} 再入荷のお知らせ',
  emailBody: 'お待たせしました。{product} が再入荷しました。\n{url}',
  perUnit: 1,
  intervalMinutes: 60,
}

/** The 400 of the admin stock endpoints: their body is not 1–500 items `{productSlug, quantity}`. */
const ADMIN_ITEMS_INVALID = failure(
  'The body is not 1–500 well-formed items.',
  ITEMS_REQUIRED,
  ITEMS_EMPTY,
  ITEMS_TOO_MANY,
  ADMIN_ITEM_INVALID,
  UNUSABLE_ID_MESSAGE,
)

const admin = (responses: ApiOperation['responses']) => mergeResponses(responses, adminErrors())

export const STOCK_OPERATIONS: ApiOperation[] = [
  {
    method: 'post',
    route: 'adminStockList',
    operationId: 'listStock',
    tag: 'Admin',
    summary: 'Stock, waiting subscribers and automatic-notice settings of every product',
    description:
      'One line per product of the catalogue; a product with variants has one line per variant (`variant`), each with its own stock, waiting subscribers and automatic notice. `waiting` counts who a send or the next wave would e-mail, by the one rule both use: pending, not archived, not opted out (or consented again after), confirmed where double opt-in asked for it, address not suppressed; `notWaiting` counts the pending subscribers left out, by reason. `quietHours` is the window of `QUIET_HOURS` (null when off): the dashboard asks before a manual send inside it. `lineWaiting` counts the LINE sign-ups among the waiting, and `line` is the month’s LINE messages (null without LINE): the dashboard warns before a send whose LINE recipients pass what is left. Read-only; the body is `{}`.',
    body: { schema: z.object({}), view: 'input', example: {} },
    responses: admin({
      200: {
        description: 'Every product.',
        body: answers.stockListAnswer,
        examples: {
          success: {
            success: true,
            stock: [
              {
                productSlug: 'hario-v60-dripper',
                quantity: 3,
                updatedAt: '2026-11-23T02:25:00.000Z',
                waiting: 12,
                notWaiting: { optedOut: 1, unconfirmed: 2, suppressed: 0 },
                lineWaiting: 3,
                auto: { ...AUTO, holdHours: 24 },
                holds: { open: 2, claimed: 5, expired: 1 },
                nextWaveAt: '2026-11-23T03:25:00.000Z',
              },
              {
                productSlug: 'mino-mug',
                variant: 'ai',
                quantity: 0,
                updatedAt: '2026-11-23T02:25:00.000Z',
                waiting: 4,
                notWaiting: { optedOut: 0, unconfirmed: 0, suppressed: 0 },
                lineWaiting: 0,
                auto: null,
                holds: { open: 0, claimed: 0, expired: 0 },
                nextWaveAt: null,
              },
            ],
            quietHours: { from: 21, until: 8 },
            line: { limit: 500, usage: 120, remaining: 380 },
          },
        },
      },
    }),
  },
  {
    method: 'post',
    route: 'adminStock',
    operationId: 'setStock',
    tag: 'Admin',
    summary: 'Set stock quantities (by hand or a CSV import)',
    description:
      '1–500 items `{productSlug, variant?, quantity}` (an integer, 0 to 1,000,000). A product with variants keeps stock per variant: its items need `variant` (the variant’s id); a product without variants refuses one. Nothing changes unless every item has that shape; an item naming no product, no variant of a product with variants, or a variant the product does not have is reported in `errors` and the others are stored. A product going from 0 (or unknown) to more than 0 with its automatic notice on starts the waves (see `POST /api/admin/notify/auto`). A product named twice takes its last quantity. A change that started the waves says in `wave` what the first one did (how many it e-mailed, when the next is due).',
    body: {
      schema: adminStockSchema,
      view: 'input',
      example: {
        items: [
          { productSlug: 'hario-v60-dripper', quantity: 3 },
          { productSlug: 'mino-mug', variant: 'ai', quantity: 2 },
        ],
      },
    },
    responses: admin({
      200: {
        description: 'Stored; unknown products in `errors`; per product the wave it started.',
        body: answers.stockUpdated,
        examples: {
          success: {
            success: true,
            updated: [
              {
                productSlug: 'hario-v60-dripper',
                quantity: 3,
                previous: 0,
                wave: {
                  state: 'sent',
                  notificationId: 'notif_6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
                  recipients: 3,
                  deliveryMode: 'email',
                  nextAt: '2026-11-23T03:25:00.000Z',
                },
              },
            ],
          },
        },
      },
      400: ADMIN_ITEMS_INVALID,
    }),
  },
  {
    method: 'post',
    route: 'adminStockPreview',
    operationId: 'previewStock',
    tag: 'Admin',
    summary: 'What a stock change would do, before it is made',
    description:
      'The body of `POST /api/admin/stock`; nothing is stored and nobody is e-mailed. Per product, in the order the items last named it: the quantity now (`previous`) and after, and `notify`, how many waiting subscribers the automatic wave the change would start e-mails at once (the quantity × `perUnit`, at most the waiting ones; 0 when no wave would start). The dashboard’s CSV import shows it and asks before applying.',
    body: {
      schema: adminStockSchema,
      view: 'input',
      example: { items: [{ productSlug: 'hario-v60-dripper', quantity: 3 }] },
    },
    responses: admin({
      200: {
        description: 'What would change; unknown products in `errors`.',
        body: answers.stockPreviewAnswer,
        examples: {
          success: {
            success: true,
            changes: [{ productSlug: 'hario-v60-dripper', previous: 0, quantity: 3, notify: 3 }],
          },
        },
      },
      400: ADMIN_ITEMS_INVALID,
    }),
  },
  {
    method: 'post',
    route: 'stockWebhook',
    operationId: 'receiveStockWebhook',
    tag: 'Service',
    summary: 'Signed stock webhook for an inventory system or POS',
    description:
      'Header `X-Stock-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with `STOCK_WEBHOOK_SECRET` (Stripe\'s scheme): compared in constant time, the timestamp within 5 minutes of the server\'s clock, several `v1` allowed while a secret is rotated. The signature is checked before the body is parsed. Items name a product by `productSlug` or by the `sku:` of its front matter; a variant of a product with variants by its own `sku:`, or by `productSlug` and `variant`; quantities are absolute. An event `id` seen before (or being applied right now) answers `duplicate: true` and changes nothing. See README for a curl walk-through.',
    body: {
      schema: stockWebhookSchema,
      view: 'input',
      example: { id: 'evt_20261123_0001', items: [{ sku: 'SKU-1001', quantity: 3 }] },
    },
    responses: mergeResponses(
      {
        200: {
          description: 'Applied, or a duplicate (nothing changed).',
          body: answers.stockWebhookAnswer,
          examples: {
            applied: {
              success: true,
              duplicate: false,
              updated: [{ productSlug: 'hario-v60-dripper', quantity: 3, previous: 0 }],
            },
            duplicate: { success: true, duplicate: true },
          },
        },
        400: failure(
          'A signed body without an event id or 1–500 well-formed items.',
          EVENT_ID_REQUIRED,
          ITEMS_REQUIRED,
          ITEMS_EMPTY,
          ITEMS_TOO_MANY,
          WEBHOOK_ITEM_INVALID,
        ),
        401: failure('Bad, missing or stale signature (nothing is read).', 'Invalid signature'),
        503: failure('`STOCK_WEBHOOK_SECRET` is not set.', 'Stock webhook is not configured'),
      },
      jsonPostErrors(),
    ),
  },
  {
    method: 'post',
    route: 'adminNotifyAuto',
    operationId: 'saveAutoNotice',
    tag: 'Admin',
    summary: "Set a product's (or a variant's) automatic restock notice",
    description:
      "A product with variants has the settings per variant, as its stock: `variant` saves one variant's, none saves every variant's (answered in `variants`). When the product's (variant's) stock rises from 0 (or unknown) to N and `enabled`, a wave e-mails the N × `perUnit` oldest pending subscribers (by sign-up) through the same send and delivery as `POST /api/admin/notify/send`, one history record per wave. While stock stays above 0 and subscribers wait, the next wave goes `intervalMinutes` later, sized by the stock read just before it; stock 0 stops the waves, a later rise starts them again. `{product}` and `{url}` in the title and body are replaced by the product name (with the variant: 「美濃焼 マグカップ（藍）」) and page; a variant's waves e-mail only those waiting for that variant. `perUnit` defaults to 1 (1–100), `intervalMinutes` to 60 (10–10080). `holdHours` (0–168, default 0: off) holds a unit for each person e-mailed (お取り置き): each wave then e-mails as many of the oldest waiting as units in stock are not held (one each, `perUnit` aside), each e-mail carries a personal link 「24時間お取り置き」 to `/reservation/hold` that turns the unit into a reservation until the hold ends (counted from the e-mail), and a hold that ends unclaimed gives its unit to the next wave. Turning it on acts at the next rise; turning it off cancels the waves still due. Left out while off, the texts stored before are kept.",
    body: {
      schema: autoNoticeSchema,
      view: 'input',
      example: { productSlug: 'hario-v60-dripper', ...AUTO },
    },
    responses: admin({
      200: {
        description: 'The settings as saved.',
        body: answers.autoSaved,
        examples: {
          success: { success: true, productSlug: 'hario-v60-dripper', auto: AUTO },
          'one variant': { success: true, productSlug: 'mino-mug', variant: 'ai', auto: AUTO },
        },
      },
      400: failure(
        'A missing or invalid field.',
        'productSlug is required',
        'enabled must be true or false',
        'emailTitle is required',
        'emailBody is required',
        'perUnit must be an integer from 1 to 100',
        'intervalMinutes must be an integer from 10 to 10080',
        'holdHours must be an integer from 0 to 168',
      ),
      404: failure(
        'No product has this slug, or the product no such variant.',
        'Product not found',
        'Variant not found',
      ),
    }),
  },
  {
    method: 'post',
    route: 'stockReconcile',
    operationId: 'reconcileStock',
    tag: 'Service',
    summary: 'Read the stock feed and send what is due (scheduled every 10 minutes)',
    description:
      'Reads `STOCK_FEED_URL` (JSON `[{sku|productSlug, variant?, quantity}]` or CSV with a header row; a variant by its sku, or by a `variant` column beside the slug) when it is set and applies what differs, logging each change, so a lost webhook is caught within 10 minutes; then sends everything due, the one due first first: the automatic waves (outside the quiet hours, `QUIET_HOURS`: those due inside them go at the first run after they end) and the sends staff scheduled with `sendAt`, within a 20-second budget (the rest at the next run). Netlify runs it on the published deploy; it has no public path.',
    body: {
      schema: z.object({ next_run: z.string().optional() }),
      view: 'input',
      example: { next_run: '2026-11-23T01:10:00.000Z' },
    },
    responses: mergeResponses(
      {
        200: {
          description: 'What the feed and the waves did.',
          body: answers.stockReconciled,
          examples: {
            success: {
              success: true,
              feed: 'read',
              wavesSent: 1,
              scheduledSent: 1,
              holdsEnded: 0,
              quietHoursWaiting: 0,
              left: 0,
              changed: 2,
            },
          },
        },
      },
      jsonPostErrors(),
    ),
  },
]
