import { z } from 'zod'
import { PAGE_INVALID, PAGE_SIZE_INVALID } from '../../lib/paging.js'
import { historyListSchema } from '../../lib/restock/notificationHistoryList.js'
import {
  adminErrors,
  failure,
  jsonPostErrors,
  mergeResponses,
  type ApiOperation,
  type Responses,
} from './operationSpec.js'
import * as answers from './responseSchemas.js'

/**
 * Restock delivery after the send: its history, its resumption, the background worker, and the
 * scheduled functions (they have no public path; Netlify POSTs `{"next_run": …}` to them).
 */

const NOTIFICATION_ID = 'notif_6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b'

const notificationIdRequest = z.object({ notificationId: z.string().min(1) })

export const scheduledRequest = z
  .object({ next_run: z.string().optional() })
  .meta({ description: "Netlify's scheduler sends the time of the next run." })

function admin(responses: Responses): Responses {
  return mergeResponses(responses, adminErrors())
}

export const SCHEDULED_NOTE =
  ' Netlify runs it on the published deploy on its schedule; it has no public path and is not meant to be called. (`npm start` runs it on a POST to this path, but Netlify CLI answers with its own plain text, not this JSON.)'

const PROGRESS = {
  success: true,
  notificationId: NOTIFICATION_ID,
  deliveryState: 'delivering',
  deliveryMode: 'email',
  recipientCount: 500,
  sentCount: 120,
  failedCount: 1,
  pendingCount: 379,
  batchCount: 50,
  settledBatchCount: 13,
  queuedAt: '2026-11-23T01:00:00.000Z',
  lastBatchAt: '2026-11-23T01:02:10.000Z',
  completedAt: null,
  started: true,
}

export const DELIVERY_OPERATIONS: ApiOperation[] = [
  {
    method: 'post',
    route: 'adminNotifyHistory',
    operationId: 'listNotificationHistory',
    tag: 'Admin',
    summary: 'Past restock notices, newest first, paged, with delivery progress',
    description:
      'Each notice with its counts so far (read from the delivery’s progress record while it is delivering: one blob, whatever its size), filtered by `productSlug` and `variant` (a variant’s sends and waves; `""` or `null` = all). With `notificationId`: just that notice with its `failedRecipients` (while delivering, the first 100; an empty page when there is none), what a progress view polls. Read-only.',
    body: {
      schema: historyListSchema,
      view: 'input',
      example: { productSlug: 'hario-v60-dripper', page: 1, pageSize: 20 },
    },
    responses: admin({
      200: {
        description: 'One page.',
        body: answers.historyPage,
        examples: {
          success: {
            success: true,
            notifications: [
              {
                id: NOTIFICATION_ID,
                productSlug: 'hario-v60-dripper',
                title: 'HARIO V60 再入荷のお知らせ',
                timestamp: '2026-11-23T01:00:00.000Z',
                completedAt: '2026-11-23T01:01:00.000Z',
                recipients: 2,
                sentCount: 1,
                failedCount: 1,
                pendingCount: 0,
                state: 'complete',
                status: 'sent',
                deliveryMode: 'email',
              },
            ],
            total: 1,
            page: 1,
            pageSize: 20,
            totalPages: 1,
          },
        },
      },
      400: failure(
        'Bad paging or filter.',
        PAGE_INVALID,
        PAGE_SIZE_INVALID,
        'productSlug must be a string',
        'variant must be a string',
        'notificationId must be a string',
      ),
    }),
  },
  {
    method: 'post',
    route: 'adminNotifyResume',
    operationId: 'resumeRestockDelivery',
    tag: 'Admin',
    summary: 'Where a restock delivery stands; starts it again unless complete',
    description:
      'Safe at any time: settled batches are never sent again, an unsettled one is resent with its own idempotency key. A complete or record-only delivery is only reported (`started: false`).',
    body: {
      schema: notificationIdRequest,
      view: 'input',
      example: { notificationId: NOTIFICATION_ID },
    },
    responses: admin({
      200: {
        description: 'The progress, and whether a run was started.',
        body: answers.resumeAnswer,
        examples: {
          started: PROGRESS,
          complete: {
            ...PROGRESS,
            deliveryState: 'complete',
            sentCount: 499,
            pendingCount: 0,
            settledBatchCount: 50,
            lastBatchAt: '2026-11-23T01:09:00.000Z',
            completedAt: '2026-11-23T01:09:00.000Z',
            started: false,
          },
        },
      },
      400: failure('No notification named.', 'notificationId is required'),
      404: failure('No notice has this id.', 'Notification not found'),
      503: failure(
        'The delivery is not complete but cannot be started now; nothing was sent.',
        'Email delivery is not configured',
        'Delivery could not be started; try again',
      ),
    }),
  },
  {
    method: 'post',
    route: 'notifyDeliverBackground',
    operationId: 'runRestockDelivery',
    tag: 'Service',
    summary: 'Deliver a restock notice (background function)',
    description:
      'Started by the send endpoint, by `POST /api/admin/notify/resume` and by the scheduled `resume-stalled-deliveries`; to resume by hand, use the resume endpoint, which also reports progress. Safe at any time: settled batches are skipped. Netlify answers 202 at once and runs it in the background. It admits a call only with a delivery ticket that this deploy issued for that notification (single use, 5 minutes); the admin tokens are not tickets.',
    body: {
      schema: notificationIdRequest,
      view: 'input',
      example: { notificationId: NOTIFICATION_ID },
    },
    responses: {
      202: { description: 'Accepted; runs in the background (empty body).', body: 'none' },
    },
  },
  {
    method: 'post',
    route: 'resumeStalledDeliveries',
    operationId: 'resumeStalledDeliveries',
    tag: 'Service',
    summary: 'Restart stalled restock deliveries (scheduled every 10 minutes)',
    description:
      'Starts the background delivery of every notice still `queued` or `delivering` with no settled batch for 20 minutes; one idle for more than 23 hours is left for a person (logged).' +
      SCHEDULED_NOTE,
    body: {
      schema: scheduledRequest,
      view: 'input',
      example: { next_run: '2026-11-23T01:10:00.000Z' },
    },
    responses: mergeResponses(
      {
        200: {
          description: 'What this run did, by notification id.',
          body: answers.stalledSweep,
          examples: {
            success: { success: true, resumed: [NOTIFICATION_ID], leftForHand: [], failed: [] },
          },
        },
      },
      jsonPostErrors(),
    ),
  },
  {
    method: 'post',
    route: 'searchKeywordsRollup',
    operationId: 'rollUpSearchKeywords',
    tag: 'Service',
    summary: 'Roll up the search keyword log (scheduled hourly)',
    description:
      'Sums the closed hours and days of the keyword log so that `POST /api/admin/search-keywords` reads a few dozen blobs, then writes the rollups of closed JST days for `POST /api/admin/overview`. A failure is a logged 500; the next run builds what is missing.' +
      SCHEDULED_NOTE,
    body: {
      schema: scheduledRequest,
      view: 'input',
      example: { next_run: '2026-11-23T02:00:00.000Z' },
    },
    responses: mergeResponses(
      {
        200: {
          description: 'What this run rolled up.',
          body: answers.keywordRollupAnswer,
          examples: { success: { success: true, days: ['2026-11-22'], hours: 1, demandDays: 6 } },
        },
      },
      jsonPostErrors(),
    ),
  },
]
