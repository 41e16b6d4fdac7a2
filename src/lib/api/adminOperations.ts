import { z } from 'zod'
import {
  archiveListSchema,
  bulkIdsSchema,
  IDS_EMPTY,
  IDS_ITEM_INVALID,
  IDS_REQUIRED,
  IDS_TOO_MANY,
  invalidStatusMessage,
  listFiltersSchema,
  PAGE_INVALID,
  PAGE_SIZE_INVALID,
  statusUpdateSchema,
} from '../admin/adminSchemas.js'
import { RESERVATION_STATUSES, SUBSCRIPTION_STATUSES } from '../storage/records.js'
import { searchKeywordsRequestSchema } from '../search/searchAnalytics.js'
import { SEND_LIMITS } from '../restock/sendRestockNotification.js'
import {
  adminErrors,
  failure,
  mergeResponses,
  type ApiOperation,
  type Responses,
} from './operationSpec.js'
import * as answers from './responseSchemas.js'
import { EXAMPLE_RESERVATION, EXAMPLE_SUBSCRIPTION } from './apiExamples.js'

/** §4.8: checked by hand in the spec's order (parseSendRequest); this documents the shape. */
const sendRequestBody = z.object({
  productSlug: z.string().min(1).max(SEND_LIMITS.productSlug),
  emailTitle: z.string().min(1).max(SEND_LIMITS.emailTitle),
  emailBody: z.string().min(1).max(SEND_LIMITS.emailBody),
})

const noBody = z.object({}).meta({ description: 'Empty object, or no body at all.' })

interface ResourceDoc {
  noun: 'reservation' | 'subscription'
  plural: 'reservations' | 'notify'
  listPath: string
  statusPath: string
  statuses: readonly [string, ...string[]]
  list: z.ZodType
  archivePage: z.ZodType
  updated: z.ZodType
  example: Record<string, unknown>
  notFound: string
}

const RESOURCES: ResourceDoc[] = [
  {
    noun: 'reservation',
    plural: 'reservations',
    listPath: '/api/admin-reservations-list',
    statusPath: '/api/admin-reservations-status',
    statuses: RESERVATION_STATUSES,
    list: answers.reservationList,
    archivePage: answers.reservationArchivePage,
    updated: answers.reservationUpdated,
    example: EXAMPLE_RESERVATION,
    notFound: 'Reservation not found',
  },
  {
    noun: 'subscription',
    plural: 'notify',
    listPath: '/api/admin-notify-list',
    statusPath: '/api/admin-notify-status',
    statuses: SUBSCRIPTION_STATUSES,
    list: answers.subscriptionList,
    archivePage: answers.subscriptionArchivePage,
    updated: answers.subscriptionUpdated,
    example: EXAMPLE_SUBSCRIPTION,
    notFound: 'Subscription not found',
  },
]

function ok(description: string, body: z.ZodType, example: unknown): Responses {
  return { 200: { description, body, examples: { success: example } } }
}

function admin(responses: Responses): Responses {
  return mergeResponses(responses, adminErrors())
}

function resourceOperations(r: ResourceDoc): ApiOperation[] {
  const field = r.noun === 'reservation' ? 'reservations' : 'subscriptions'
  const Noun = r.noun === 'reservation' ? 'Reservation' : 'Subscription'
  const ref = { id: r.example.id, productSlug: r.example.productSlug }
  const bulk = (action: 'archive' | 'unarchive' | 'delete', past: string, schema: z.ZodType) => ({
    method: 'post' as const,
    path: `/api/admin/${r.plural}/${action}`,
    operationId: `${action}${Noun}s`,
    tag: 'Archive' as const,
    summary: `${action[0].toUpperCase()}${action.slice(1)} ${r.noun}s (at most 100 per request)`,
    description:
      action === 'delete'
        ? `Deletes ${r.noun}s for good. Each item is independent: a missing one is reported in \`errors\`, the others proceed.`
        : action === 'archive'
          ? `Archives ${r.noun}s (\`isArchived: true\`, \`archivedAt\` = first archiving); the status is kept.`
          : `Makes archived ${r.noun}s active again (\`archivedAt\` removed, status kept).`,
    security: 'preorder' as const,
    body: { schema: bulkIdsSchema, view: 'output' as const, example: { ids: [ref] } },
    responses: admin({
      200: {
        description: 'Done; per-item failures are listed in `errors` (still 200).',
        body: schema,
        examples: {
          success: { success: true, [`${past}Count`]: 1, [`${past}Ids`]: [ref.id] },
          'partly not found': {
            success: true,
            [`${past}Count`]: 1,
            [`${past}Ids`]: [ref.id],
            errors: [{ id: `${String(ref.id).slice(0, 4)}missing`, error: r.notFound }],
          },
        },
      },
      400: failure(
        'Invalid ids array; nothing changed.',
        IDS_REQUIRED,
        IDS_EMPTY,
        IDS_TOO_MANY,
        IDS_ITEM_INVALID,
      ),
    }),
  })
  return [
    {
      method: 'post',
      path: r.listPath,
      operationId: `list${Noun}s`,
      tag: 'Admin',
      summary: `Active ${r.noun}s, newest first`,
      description: `Every ${r.noun} that is not archived, filtered by \`status\` and \`productSlug\` (\`""\` or \`null\` = no filter).`,
      security: 'admin',
      body: {
        schema: listFiltersSchema(r.statuses),
        view: 'input',
        example: { status: 'pending', productSlug: r.example.productSlug },
      },
      responses: admin({
        ...ok('The list.', r.list, { success: true, [field]: [r.example] }),
        400: failure(
          'A filter is not valid.',
          invalidStatusMessage('shipped'),
          'productSlug must be a string',
        ),
      }),
    },
    {
      method: 'post',
      path: r.statusPath,
      operationId: `update${Noun}Status`,
      tag: 'Admin',
      summary:
        r.noun === 'reservation'
          ? 'Set the status and notes of a reservation'
          : 'Set the status of a subscription',
      description:
        r.noun === 'reservation'
          ? 'Transitions of §3.2 only (409 otherwise); the same status again edits the notes alone. `notes` replaces, `""` clears, omitted keeps.'
          : 'Any status may be set; `notifiedAt` follows §3.1.',
      security: 'admin',
      body: {
        schema: statusUpdateSchema(r.statuses, { notes: r.noun === 'reservation' }),
        view: 'output',
        example: {
          ...ref,
          status: r.statuses[1],
          ...(r.noun === 'reservation' ? { notes: '土曜日に店頭受け取り' } : {}),
        },
      },
      responses: admin({
        ...ok('The updated record.', r.updated, { success: true, [r.noun]: r.example }),
        400: failure(
          'Missing fields, unknown status, or bad notes.',
          'Missing required fields: id, productSlug, status',
          invalidStatusMessage('shipped'),
          ...(r.noun === 'reservation'
            ? [
                'notes must be a string (send "" to clear the notes)',
                'notes must be at most 2000 characters',
              ]
            : []),
        ),
        404: failure('No such record.', r.notFound),
        ...((r.noun === 'reservation'
          ? {
              409: failure(
                'A transition §3.2 does not list.',
                'Invalid status transition: fulfilled -> pending',
              ),
            }
          : {}) as Responses),
      }),
    },
    {
      method: 'post',
      path: `/api/admin/${r.plural}/archives/list`,
      operationId: `listArchived${Noun}s`,
      tag: 'Archive',
      summary: `Archived ${r.noun}s, most recently archived first, paged`,
      description: 'A page beyond the last is empty but reports the true `total` and `totalPages`.',
      security: 'preorder',
      body: { schema: archiveListSchema, view: 'input', example: { page: 1, pageSize: 20 } },
      responses: admin({
        ...ok('One page.', r.archivePage, {
          success: true,
          [field]: [{ ...r.example, isArchived: true, archivedAt: '2026-11-23T01:00:00.000Z' }],
          total: 1,
          page: 1,
          pageSize: 20,
          totalPages: 1,
        }),
        400: failure(
          'Bad paging or filter.',
          PAGE_INVALID,
          PAGE_SIZE_INVALID,
          'productSlug must be a string',
          'status must be a string',
        ),
      }),
    },
    bulk('archive', 'archived', answers.archivedAnswer),
    bulk('unarchive', 'unarchived', answers.unarchivedAnswer),
    bulk('delete', 'deleted', answers.deletedAnswer),
  ]
}

const serviceOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/api/admin-stats',
    operationId: 'getStats',
    tag: 'Admin',
    summary: 'Counts by status and product',
    description: 'Over every stored record, archived ones included.',
    security: 'admin',
    body: { schema: noBody, view: 'input', example: {} },
    responses: admin(
      ok('The statistics.', answers.statsAnswer, {
        success: true,
        stats: {
          notify: { total: 1, byStatus: { pending: 1 }, byProduct: { 'hario-v60-dripper': 1 } },
          reservations: { total: 1, byStatus: { pending: 1 }, byProduct: { 'chasen-takayama': 1 } },
        },
      }),
    ),
  },
  {
    method: 'post',
    path: '/api/admin/notify/send',
    operationId: 'sendRestockNotification',
    tag: 'Admin',
    summary: 'Restock e-mail to every pending subscriber of a product',
    description:
      'Without an e-mail provider: records the notification and marks the subscribers notified. With Resend: queues delivery in a background function (10 per batch, 1 s apart) and answers at once; `sentCount` = recipients queued. An identical send while one is delivering answers the same notification.',
    security: 'admin',
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
        'No pending subscribers found for this product',
      ),
      503: failure(
        'E-mail delivery cannot run; nothing was sent.',
        'Email delivery is not configured: UNSUBSCRIBE_SECRET is not set',
        'Email delivery could not be started; no e-mail was sent',
      ),
    }),
  },
  {
    method: 'post',
    path: '/api/admin/search-keywords',
    operationId: 'getSearchKeywords',
    tag: 'Admin',
    summary: 'Top and zero-result search queries',
    description: 'Searches of the last `days` UTC days (today included), queries normalized.',
    security: 'admin',
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
    path: '/.netlify/functions/notify-deliver-background',
    operationId: 'resumeDelivery',
    tag: 'Service',
    summary: 'Resume a restock delivery (background function)',
    description:
      'Started by the send endpoint; an admin calls it only to resume a delivery the logs say stopped. Safe at any time: settled batches are skipped. Netlify answers 202 at once and runs it in the background.',
    security: 'admin',
    body: {
      schema: z.object({ notificationId: z.string().min(1) }),
      view: 'input',
      example: { notificationId: 'notif_6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b' },
    },
    responses: {
      202: { description: 'Accepted; runs in the background (empty body).', body: 'none' },
    },
  },
]

/** The admin API: both record resources, statistics, restock sending, search analytics. */
export const ADMIN_OPERATIONS: ApiOperation[] = [
  ...RESOURCES.flatMap(resourceOperations),
  ...serviceOperations,
]
