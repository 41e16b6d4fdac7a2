import { z } from 'zod'
import { searchKeywordsRequestSchema } from '../../lib/search/analytics/searchAnalytics.js'
import {
  addSynonymsRequestSchema,
  deleteSynonymsRequestSchema,
  SAME_WORDS_MESSAGE,
  SYNONYM_NOT_FOUND_MESSAGE,
} from '../../lib/search/synonyms/staffSynonyms.js'
import { CONFLICT_MESSAGE } from '../../lib/errors.js'
import { LINE_NOT_READY } from '../../lib/restock/sendPreparation.js'
import {
  EMAIL_NOT_STARTED,
  LINE_NOT_STARTED,
  NO_UNIT_TO_HOLD,
  SEND_IN_PROGRESS,
} from '../../lib/restock/sendRestockNotification.js'
import {
  HOLD_TEXTS,
  SEND_AT_INVALID,
  SEND_LIMITS,
  VARIANT_TEXTS,
} from '../../lib/restock/sendRequest.js'
import { SEND_AT_PAST, SEND_AT_TOO_FAR } from '../../lib/restock/scheduledSend.js'
import {
  adminErrors,
  failure,
  mergeResponses,
  type ApiOperation,
  type Responses,
} from './operationSpec.js'
import * as answers from './responseSchemas.js'

/** §4.8: checked by hand in the spec's order (parseSendRequest); this documents the shape. */
const sendRequestBody = z.object({
  productSlug: z.string().min(1).max(SEND_LIMITS.productSlug),
  variant: z
    .string()
    .optional()
    .meta({
      description:
        'A product with variants: only the subscribers waiting for this variant (its id); left out, every waiting subscriber of the product, each e-mail naming their own variant.',
      examples: ['ai'],
    }),
  emailTitle: z.string().min(1).max(SEND_LIMITS.emailTitle),
  emailBody: z.string().min(1).max(SEND_LIMITS.emailBody),
  holdHours: z.int().min(0).max(168).nullish().meta({
    description:
      'Hold a unit for each recipient (お取り置き), 1–168 hours from their e-mail: the send e-mails at most as many of the oldest waiting as units in stock are not held, each with a personal link 「24時間お取り置き」 to `/reservation/hold`. A product with variants needs `variant`. Absent, null or 0: no holds.',
  }),
  sendAt: z.iso.datetime({ offset: true }).nullish().meta({
    description:
      'Send later: an ISO 8601 time with its offset, after now and at most 30 days ahead. Absent or null: now.',
  }),
})

const noBody = z.object({}).meta({ description: 'Empty object, or no body at all.' })

function ok(description: string, body: z.ZodType, example: unknown): Responses {
  return { 200: { description, body, examples: { success: example } } }
}

function admin(responses: Responses): Responses {
  return mergeResponses(responses, adminErrors())
}

/** Statistics, restock sending and search analytics. */
export const SERVICE_OPERATIONS: ApiOperation[] = [
  {
    method: 'post',
    route: 'adminWhoami',
    operationId: 'whoAmI',
    tag: 'Admin',
    summary: 'Who a token names and what it may do',
    description:
      'Accepts a token of either group and answers the name the audit trail records for it and the groups whose endpoints accept it (`admin`: lists, status, statistics, sending, stock; `preorder`: archive, archive lists, unarchive, delete). The dashboard signs in with it. Reads nothing but the token.',
    body: { schema: noBody, view: 'input', example: {} },
    responses: admin(
      ok('The token’s holder and groups.', answers.whoamiAnswer, {
        success: true,
        name: 'sato',
        groups: ['admin', 'preorder'],
      }),
    ),
  },
  {
    method: 'post',
    route: 'adminStats',
    operationId: 'getStats',
    tag: 'Admin',
    summary: 'Counts by status and product (and variant)',
    description:
      'Over every stored record, archived ones included (§2.4); `byVariant` beside `byProduct` counts the records of products with variants per variant, present only when some record has one.',
    body: { schema: noBody, view: 'input', example: {} },
    responses: admin(
      ok('The statistics.', answers.statsAnswer, {
        success: true,
        stats: {
          notify: {
            total: 3,
            byStatus: { pending: 3 },
            byProduct: { 'hario-v60-dripper': 1, 'mino-mug': 2 },
            byVariant: { 'mino-mug': { ai: 2 } },
          },
          reservations: { total: 1, byStatus: { pending: 1 }, byProduct: { 'chasen-takayama': 1 } },
        },
      }),
    ),
  },
  {
    method: 'post',
    route: 'adminNotifySend',
    operationId: 'sendRestockNotification',
    tag: 'Admin',
    summary: 'Restock e-mail to every pending subscriber of a product (or of one variant)',
    description:
      "A product with variants: `variant` sends to those waiting for that variant only, each e-mail naming it (「美濃焼 マグカップ（藍）」); without it, to every waiting subscriber of the product. Without an e-mail provider: records the notification and marks the subscribers notified. With Resend: queues delivery in a background function (10 per batch, 1 s apart) and answers at once; `sentCount` = recipients queued. An identical send while one is delivering answers the same notification. One send per product at a time: the recipients are chosen under the product's send lock, and a different send (or an automatic wave) meanwhile answers 409; a subscriber an open notice (e.g. a wave still delivering) holds is left out. With `sendAt` the send is scheduled: stored now (the configuration is checked now), sent by the scheduled sweep (`stock-reconcile`, every 10 minutes) within 10 minutes after that time, to whoever is waiting then, as the `notificationId` answered now. A manual send is never held back by the quiet hours (`QUIET_HOURS`); the dashboard asks at night whether to send now or at their end.",
    body: {
      schema: sendRequestBody,
      view: 'input',
      example: {
        productSlug: 'hario-v60-dripper',
        emailTitle: 'HARIO V60 再入荷のお知らせ',
        emailBody: 'お待たせしました。本日再入荷しました。',
      },
    },
    responses: admin({
      ...ok('Recorded or queued.', answers.sendSummary, {
        success: true,
        notificationId: 'notif_6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
        sentCount: 1,
        recipientEmails: ['hanako@example.com'],
        timestamp: '2026-11-23T01:00:00.000Z',
      }),
      400: failure(
        'A field is missing or too long (checked in this order), or nobody is pending.',
        'productSlug is required',
        'emailTitle is required',
        'emailBody is required',
        `productSlug must be at most ${SEND_LIMITS.productSlug} characters`,
        `emailTitle must be at most ${SEND_LIMITS.emailTitle} characters`,
        `emailBody must be at most ${SEND_LIMITS.emailBody} characters`,
        VARIANT_TEXTS.notText,
        VARIANT_TEXTS.noVariants,
        VARIANT_TEXTS.unknown('koi', ['ai', 'shiro', 'ame']),
        'No pending subscribers found for this product',
        HOLD_TEXTS.invalid,
        HOLD_TEXTS.variantRequired,
        NO_UNIT_TO_HOLD,
        SEND_AT_INVALID,
        SEND_AT_PAST,
        SEND_AT_TOO_FAR,
      ),
      409: failure(
        "Another send is choosing this product's recipients right now; nothing was sent. Try again in a moment.",
        SEND_IN_PROGRESS,
      ),
      503: failure(
        'The delivery cannot run; nothing was sent and nobody marked notified. The LINE texts answer a shop with LINE and without an e-mail provider.',
        'Email delivery is not configured: UNSUBSCRIBE_SECRET is not set',
        EMAIL_NOT_STARTED,
        LINE_NOT_READY,
        LINE_NOT_STARTED,
      ),
    }),
  },
  {
    method: 'post',
    route: 'adminSearchKeywords',
    operationId: 'getSearchKeywords',
    tag: 'Admin',
    summary: 'Top and zero-result search queries',
    description: 'Searches of the last `days` UTC days (today included), queries normalized.',
    body: { schema: searchKeywordsRequestSchema, view: 'input', example: { days: 7, limit: 10 } },
    responses: admin({
      ...ok('The summary.', answers.keywordSummary, {
        success: true,
        from: '2026-11-17T00:00:00.000Z',
        to: '2026-11-23T01:00:00.000Z',
        totalSearches: 3,
        topQueries: [{ query: '入荷', count: 2 }],
        zeroResultQueries: [{ query: 'teapot', count: 1 }],
      }),
      400: failure(
        'Out of range.',
        'days must be an integer between 1 and 90',
        'limit must be an integer between 1 and 100',
      ),
    }),
  },
  {
    method: 'post',
    route: 'adminSearchSynonymsList',
    operationId: 'listSearchSynonyms',
    tag: 'Admin',
    summary: 'Search synonyms',
    description:
      'The synonym groups staff added (applied to searches within a minute, no rebuild) and those of `content/search-synonyms` baked into this deploy.',
    body: { schema: noBody, view: 'input', example: {} },
    responses: admin(
      ok('The groups.', answers.synonymListAnswer, {
        success: true,
        groups: [
          {
            id: 'syn_4f9c2a7b1e3d5a60',
            words: ['鉄瓶', 'tetsubin'],
            createdAt: '2026-11-23T02:25:00.000Z',
          },
        ],
        builtIn: [['抹茶', 'matcha']],
      }),
    ),
  },
  {
    method: 'post',
    route: 'adminSearchSynonymsAdd',
    operationId: 'addSearchSynonyms',
    tag: 'Admin',
    summary: 'Add a synonym group',
    description:
      'Words that find each other: a search for any of them also finds pages holding the others (each instance reads the groups again after a minute).',
    body: {
      schema: addSynonymsRequestSchema,
      view: 'input',
      example: { words: ['鉄瓶', 'tetsubin'] },
    },
    responses: admin({
      201: {
        description: 'Added.',
        body: answers.synonymAddedAnswer,
        examples: {
          success: {
            success: true,
            group: {
              id: 'syn_4f9c2a7b1e3d5a60',
              words: ['鉄瓶', 'tetsubin'],
              createdAt: '2026-11-23T02:25:00.000Z',
            },
          },
        },
      },
      400: failure(
        'Not a group of different words, or 500 groups already.',
        'words must be a list of 2 to 10 different words of 1 to 40 characters',
        SAME_WORDS_MESSAGE,
        'At most 500 synonym groups; delete one first',
      ),
      409: failure(
        'The list changed under five attempts in a row; nothing was written.',
        CONFLICT_MESSAGE,
      ),
    }),
  },
  {
    method: 'post',
    route: 'adminSearchSynonymsRemove',
    operationId: 'removeSearchSynonyms',
    tag: 'Admin',
    summary: 'Remove a synonym group',
    description: 'Searches stop using it within a minute.',
    body: {
      schema: deleteSynonymsRequestSchema,
      view: 'input',
      example: { id: 'syn_4f9c2a7b1e3d5a60' },
    },
    responses: admin({
      ...ok('Deleted.', answers.synonymDeletedAnswer, {
        success: true,
        id: 'syn_4f9c2a7b1e3d5a60',
      }),
      400: failure('Not a group id.', 'id must be a synonym group id'),
      404: failure('No such group.', SYNONYM_NOT_FOUND_MESSAGE),
      409: failure(
        'The list changed under five attempts in a row; nothing was written.',
        CONFLICT_MESSAGE,
      ),
    }),
  },
]
