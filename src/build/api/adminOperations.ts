import { z } from 'zod'
import {
  archiveListSchema,
  CURSOR_INVALID,
  bulkIdsSchema,
  IDS_EMPTY,
  IDS_ITEM_INVALID,
  IDS_REQUIRED,
  IDS_TOO_MANY,
  LIST_PAGE_SIZE_INVALID,
  invalidStatusMessage,
  listFiltersSchema,
  SEARCH_INVALID,
  VARIANT_WITHOUT_PRODUCT,
  statusUpdateSchema,
} from '../../lib/admin/adminSchemas.js'
import { PAGE_INVALID, PAGE_SIZE_INVALID } from '../../lib/paging.js'
import type { RouteName } from '../../lib/routes.js'
import { RESERVATION_STATUSES, SUBSCRIPTION_STATUSES } from '../../lib/storage/records.js'
import {
  adminErrors,
  failure,
  mergeResponses,
  type ApiOperation,
  type Responses,
  type ResponseSpec,
} from './operationSpec.js'
import { CONFLICT_MESSAGE } from '../../lib/errors.js'
import { LIMIT_REACHED_MESSAGE } from '../../lib/reservations/preorderRules.js'
import { UNUSABLE_ID_MESSAGE } from '../../lib/storage/recordIds.js'
import * as answers from './responseSchemas.js'
import { EXAMPLE_RESERVATION, EXAMPLE_SUBSCRIPTION } from './apiExamples.js'

interface ResourceDoc {
  noun: 'reservation' | 'subscription'
  routes: Record<'list' | 'status' | 'archives' | 'archive' | 'unarchive' | 'delete', RouteName>
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
    routes: {
      list: 'adminReservationsList',
      status: 'adminReservationsStatus',
      archives: 'adminReservationsArchivesList',
      archive: 'adminReservationsArchive',
      unarchive: 'adminReservationsUnarchive',
      delete: 'adminReservationsDelete',
    },
    statuses: RESERVATION_STATUSES,
    list: answers.reservationList,
    archivePage: answers.reservationArchivePage,
    updated: answers.reservationUpdated,
    example: EXAMPLE_RESERVATION,
    notFound: 'Reservation not found',
  },
  {
    noun: 'subscription',
    routes: {
      list: 'adminNotifyList',
      status: 'adminNotifyStatus',
      archives: 'adminNotifyArchivesList',
      archive: 'adminNotifyArchive',
      unarchive: 'adminNotifyUnarchive',
      delete: 'adminNotifyDelete',
    },
    statuses: SUBSCRIPTION_STATUSES,
    list: answers.subscriptionList,
    archivePage: answers.subscriptionArchivePage,
    updated: answers.subscriptionUpdated,
    example: EXAMPLE_SUBSCRIPTION,
    notFound: 'Subscription not found',
  },
]

function reservationStatusConflict(): ResponseSpec {
  const plain = failure(
    'A transition §3.2 does not list, the cap has no units left for a reservation leaving `cancelled` (`remaining`), or the record kept changing under the update (nothing written; try again).',
    'Invalid status transition: fulfilled -> pending',
    CONFLICT_MESSAGE,
  )
  return {
    ...plain,
    body: z.union([answers.errorBody, answers.limitReachedBody]),
    examples: {
      ...plain.examples,
      [LIMIT_REACHED_MESSAGE]: { success: false, error: LIMIT_REACHED_MESSAGE, remaining: 0 },
    },
  }
}

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
    route: r.routes[action],
    operationId: `${action}${Noun}s`,
    tag: 'Archive' as const,
    summary: `${action[0].toUpperCase()}${action.slice(1)} ${r.noun}s (at most 100 per request)`,
    description:
      action === 'delete'
        ? `Deletes ${r.noun}s for good. Each item is independent: a missing one is reported in \`errors\`, the others proceed.`
        : action === 'archive'
          ? `Archives ${r.noun}s (\`isArchived: true\`, \`archivedAt\` = first archiving); the status is kept.`
          : `Makes archived ${r.noun}s active again (\`archivedAt\` removed, status kept).`,
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
          'an item failed': {
            success: true,
            [`${past}Count`]: 0,
            [`${past}Ids`]: [],
            errors: [{ id: ref.id, error: `Failed to ${action} ${r.noun}` }],
          },
        },
      },
      400: failure(
        'Invalid ids array; nothing changed.',
        IDS_REQUIRED,
        IDS_EMPTY,
        IDS_TOO_MANY,
        IDS_ITEM_INVALID,
        UNUSABLE_ID_MESSAGE,
      ),
    }),
  })
  return [
    {
      method: 'post',
      route: r.routes.list,
      operationId: `list${Noun}s`,
      tag: 'Admin',
      summary: `Active ${r.noun}s, newest first`,
      description: `Every ${r.noun} that is not archived, filtered by \`status\`, \`productSlug\` and \`variant\` (a variant's id, sent with its \`productSlug\`; \`""\` or \`null\` = no filter). A record of a product with variants carries \`variant\`. Without \`pageSize\`, \`cursor\` and \`q\` the whole list, streamed (400 when it is larger than one answer may be: page it). With any of them one page (\`pageSize\` 1 to 500, default 50) with \`total\` and \`nextCursor\`; \`q\` finds the id, name or e-mail (NFKC, case and kana insensitive, spaces ignored). A cursor works only with the filters and \`q\` it was answered for.`,
      body: {
        schema: listFiltersSchema(r.statuses),
        view: 'input',
        example: { status: 'pending', productSlug: r.example.productSlug },
      },
      responses: admin({
        200: {
          description: 'The whole list, or one page of it.',
          body: r.list,
          examples: {
            success: { success: true, [field]: [r.example] },
            page: {
              success: true,
              [field]: [r.example],
              total: 120,
              nextCursor:
                'eyJ0IjoiMjAyNi0xMS0yMlQwMjoyNTowMC4wMDBaIiwiaSI6InJlc18xIiwiZiI6ImFiYyJ9',
            },
          },
        },
        400: failure(
          'A filter or paging field is not valid, or the whole list is too large for one answer.',
          invalidStatusMessage('shipped'),
          'productSlug must be a string',
          'variant must be a string',
          VARIANT_WITHOUT_PRODUCT,
          LIST_PAGE_SIZE_INVALID,
          CURSOR_INVALID,
          SEARCH_INVALID,
          `this list has 90000 records, too many for one answer; send pageSize (at most 500) and follow nextCursor`,
        ),
      }),
    },
    {
      method: 'post',
      route: r.routes.status,
      operationId: `update${Noun}Status`,
      tag: 'Admin',
      summary:
        r.noun === 'reservation'
          ? 'Set the status and notes of a reservation'
          : 'Set the status of a subscription',
      description:
        r.noun === 'reservation'
          ? 'Transitions of §3.2 only (409 otherwise); the same status again edits the notes alone. `notes` replaces, `""` clears, omitted keeps. Leaving `cancelled` takes the reservation’s units again (409 with `remaining` when the cap has none left); `cancelled` frees them. An applied change into `confirmed`, `fulfilled` or `cancelled` e-mails the customer once (unless `RESERVATION_STATUS_EMAILS=off`), with the notes only when staff chose to share them: `shareNote: true` is stored with the record and every status e-mail from then on carries the notes, until `shareNote: false` is sent; omitted keeps the stored choice. The e-mail goes after `RESERVATION_STATUS_EMAIL_DELAY_MS` (10 s) and only if the change is still the reservation’s state then (a change undone, or a delete, within that time e-mails nothing).'
          : 'Any status may be set; `notifiedAt` follows §3.1.',
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
          UNUSABLE_ID_MESSAGE,
          invalidStatusMessage('shipped'),
          ...(r.noun === 'reservation'
            ? [
                'notes must be a string (send "" to clear the notes)',
                'notes must be at most 2000 characters',
                'shareNote must be true or false',
              ]
            : []),
        ),
        404: failure('No such record.', r.notFound),
        409:
          r.noun === 'reservation'
            ? reservationStatusConflict()
            : failure(
                'The record kept changing under the update (nothing written; try again).',
                CONFLICT_MESSAGE,
              ),
      }),
    },
    {
      method: 'post',
      route: r.routes.archives,
      operationId: `listArchived${Noun}s`,
      tag: 'Archive',
      summary: `Archived ${r.noun}s, most recently archived first, paged`,
      description:
        'A page beyond the last is empty but reports the true `total` and `totalPages`. `q` finds the id, name or e-mail, and `variant` (with `productSlug`) filters, as in the active list.',
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
          'variant must be a string',
          VARIANT_WITHOUT_PRODUCT,
          'status must be a string',
          SEARCH_INVALID,
        ),
      }),
    },
    bulk('archive', 'archived', answers.archivedAnswer),
    bulk('unarchive', 'unarchived', answers.unarchivedAnswer),
    bulk('delete', 'deleted', answers.deletedAnswer),
  ]
}

/** The admin record endpoints of both resources (lists, status, archive group). */
export const ADMIN_OPERATIONS: ApiOperation[] = RESOURCES.flatMap(resourceOperations)
