import { z } from 'zod'
import {
  DELIVERY_STATES,
  RESERVATION_STATUSES,
  SUBSCRIPTION_STATUSES,
} from '../../lib/storage/records.js'
import { AUDIT_ACTIONS, AUDIT_RECORD_TYPES } from '../../lib/storage/auditRepository.js'

/**
 * The answers of every endpoint as zod schemas: the source of the OpenAPI document's response
 * schemas (scripts/build-openapi.ts). The endpoints build their answers with plain objects; the
 * end-to-end OpenAPI test checks real answers against these, so a change to an answer that is
 * not made here fails a test. Objects are strict: an undocumented field is drift too.
 */

// why: the format, not zod's long date-time pattern, repeated at every timestamp of the document
const timestamp = z.string().meta({ format: 'date-time', examples: ['2026-11-22T02:25:00.000Z'] })
const count = z.int().min(0)
const slug = z.string().meta({ examples: ['chasen-takayama'] })
const unreadable = z.int().min(1).optional().meta({
  description:
    'Stored blobs that are not readable records (skipped and logged); absent when there are none.',
})

const rebuilding = z.literal(true).optional().meta({
  description:
    'An index this answer is read from is missing and being rebuilt in the background: the answer holds what is indexed so far. Absent otherwise.',
})

export const errorBody = z
  .strictObject({ success: z.literal(false), error: z.string() })
  .meta({ description: 'Every failure: `success: false` and the exact error text.' })

export const formErrorBody = z
  .strictObject({
    success: z.literal(false),
    error: z.string(),
    details: z
      .array(z.strictObject({ field: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'One entry per invalid field (its first problem), in form order.' }),
  })
  .meta({ description: 'A failure of a customer form, in Japanese; `details` on validation.' })

export const reservationRecord = z
  .strictObject({
    id: z
      .string()
      .regex(/^res_/)
      .meta({ examples: ['res_3b1f0c9e-8a52-4d7e-9c41-5f2a6b7d8e90'] }),
    name: z.string(),
    email: z.string(),
    productSlug: slug,
    status: z.string().meta({
      description: `One of ${RESERVATION_STATUSES.join(', ')}; archived imports may carry the legacy \`responded\` / \`reserved\`.`,
      examples: ['pending'],
    }),
    notes: z.string(),
    createdAt: timestamp,
    respondedAt: timestamp.nullable().optional(),
    isArchived: z.boolean().optional(),
    archivedAt: timestamp.optional(),
    quantity: z.int().min(1).optional().meta({
      description: 'Units reserved; absent on reservations stored before quantities (= 1).',
    }),
    statusChangedAt: timestamp
      .optional()
      .meta({ description: 'When the status last changed; absent until it first changes.' }),
    cancelledBy: z
      .enum(['customer', 'staff'])
      .optional()
      .meta({ description: '`customer` when cancelled on the manage page, else `staff`.' }),
    usedManageLinks: z
      .array(z.string())
      .optional()
      .meta({ description: 'Ids of manage links already used to cancel (never act again).' }),
    shareNote: z.boolean().optional().meta({
      description:
        'Staff chose to tell the customer the notes: every status e-mail from then on carries them. Absent: never chosen.',
    }),
  })
  .meta({ description: 'A reservation (§2.2 plus quantity and status bookkeeping).' })

export const subscriptionRecord = z
  .strictObject({
    id: z
      .string()
      .regex(/^ntf_\d+-/)
      .meta({ examples: ['ntf_1763778300000-4f9c2a7b1e'] }),
    email: z.string(),
    productSlug: slug,
    status: z.enum(SUBSCRIPTION_STATUSES),
    createdAt: timestamp,
    notifiedAt: timestamp.nullable(),
    unsubscribedAt: timestamp.optional().meta({
      description: 'When the subscriber opted out; kept when staff set it back to pending.',
    }),
    consentedAt: timestamp.optional().meta({
      description: 'When the latest consent was given for it (a repeated sign-up renews it).',
    }),
    confirmedAt: timestamp.nullable().optional().meta({
      description: 'Double opt-in: null until confirmed; absent when no confirmation was asked.',
    }),
    isArchived: z.boolean().optional(),
    archivedAt: timestamp.optional(),
  })
  .meta({ description: 'A restock notification subscription (§2.1).' })

export const limitReachedBody = z
  .strictObject({
    success: z.literal(false),
    error: z.string(),
    remaining: count.meta({ description: 'Units still free under the cap.' }),
  })
  .meta({ description: 'The reservation would take more units than the cap leaves.' })

export const outsideWindowBody = z
  .strictObject({
    success: z.literal(false),
    error: z.string(),
    opensAt: z.string().optional().meta({ description: 'Before opening: when it opens.' }),
    closesAt: z.string().optional().meta({ description: 'After closing: when it closed.' }),
  })
  .meta({ description: 'Outside the product’s reservation window.' })

export const availabilityAnswer = z.strictObject({
  success: z.literal(true),
  productSlug: slug,
  reservable: z.boolean().meta({ description: 'Whether one unit could be reserved now.' }),
  remaining: count.nullable().meta({ description: 'Units left under the cap; null: no cap.' }),
  opensAt: z.string().nullable(),
  closesAt: z.string().nullable(),
  releaseDate: z.string().nullable(),
})

export const reservationCreated = z.strictObject({
  success: z.literal(true),
  reservationId: reservationRecord.shape.id,
})

export const subscriptionCreated = z.strictObject({
  success: z.literal(true),
  subscriptionId: subscriptionRecord.shape.id,
})

const recordStats = z.strictObject({
  total: count,
  byStatus: z.record(z.string(), count),
  byProduct: z.record(z.string(), count),
  unreadable,
})

export const whoamiAnswer = z.strictObject({
  success: z.literal(true),
  name: z.string().meta({
    description:
      'The STAFF_TOKENS name of the token sent, or `admin` / `preorder` for ADMIN_API_TOKEN / PREORDER_API_TOKEN.',
    examples: ['sato'],
  }),
  groups: z
    .array(z.enum(['admin', 'preorder']))
    .min(1)
    .meta({ description: 'The token groups whose endpoints accept this token (§5, D7).' }),
})

export const statsAnswer = z.strictObject({
  success: z.literal(true),
  stats: z.strictObject({ notify: recordStats, reservations: recordStats }),
  rebuilding,
})

const reservationRecords = z.strictObject({
  success: z.literal(true),
  reservations: z.array(reservationRecord),
  unreadable,
  rebuilding,
})

const subscriptionRecords = z.strictObject({
  success: z.literal(true),
  subscriptions: z.array(subscriptionRecord),
  unreadable,
  rebuilding,
})

// why: present exactly when the request sent pageSize, cursor or q (issue 21)
const cursorPaging = {
  total: count.optional().meta({
    description: 'Paged requests: how many records match the filters and `q`, on every page.',
  }),
  nextCursor: z.string().nullable().optional().meta({
    description:
      'Paged requests: send it as `cursor` (with the same filters) for the next page; null on the last page.',
  }),
}

export const reservationList = reservationRecords.extend(cursorPaging)
export const subscriptionList = subscriptionRecords.extend(cursorPaging)

export const reservationUpdated = z.strictObject({
  success: z.literal(true),
  reservation: reservationRecord,
})

export const subscriptionUpdated = z.strictObject({
  success: z.literal(true),
  subscription: subscriptionRecord,
})

const paging = {
  total: count,
  page: z.int().min(1),
  pageSize: z.int().min(1).max(100),
  totalPages: count,
}

export const reservationArchivePage = reservationRecords.extend(paging)
export const subscriptionArchivePage = subscriptionRecords.extend(paging)

const itemErrors = z
  .array(z.strictObject({ id: z.string(), error: z.string() }))
  .optional()
  .meta({ description: 'Items that failed, in request order; omitted when none did.' })

function bulkAnswer<Past extends 'archived' | 'unarchived' | 'deleted'>(past: Past) {
  // why: computed keys would type the answer as an index signature; the dashboard reads these
  // fields by name (z.output of the route's schema)
  const shape = {
    success: z.literal(true),
    [`${past}Count`]: count,
    [`${past}Ids`]: z.array(z.string()),
    errors: itemErrors,
  } as { success: z.ZodLiteral<true>; errors: typeof itemErrors } & Record<
    `${Past}Count`,
    typeof count
  > &
    Record<`${Past}Ids`, z.ZodArray<z.ZodString>>
  return z.strictObject(shape)
}

export const archivedAnswer = bulkAnswer('archived')
export const unarchivedAnswer = bulkAnswer('unarchived')
export const deletedAnswer = bulkAnswer('deleted')

const notificationId = z
  .string()
  .regex(/^notif_/)
  .meta({ examples: ['notif_6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b'] })
const deliveryState = z.enum(DELIVERY_STATES).meta({
  description: '`queued` → `delivering` → `complete`; records older than delivery are `complete`.',
})
const deliveryMode = z.enum(['email', 'record-only']).nullable().meta({
  description: '`email` (Resend) or `record-only` (no provider, §4.8); null on older records.',
})

export const sendSummary = z.strictObject({
  success: z.literal(true),
  notificationId,
  sentCount: count.meta({
    description: 'Recipients marked notified (no e-mail provider) or queued for delivery.',
  }),
  recipientEmails: z.array(z.string()),
  timestamp,
})

const notificationSummary = z.strictObject({
  id: notificationId,
  productSlug: slug,
  title: z.string().meta({ description: 'The e-mail subject (`emailTitle`).' }),
  timestamp,
  completedAt: timestamp.nullable(),
  recipients: count,
  sentCount: count,
  failedCount: count,
  pendingCount: count,
  state: deliveryState,
  status: z.enum(['sent', 'failed']).meta({
    description: '§2.3: `failed` only when complete and nobody was reached.',
  }),
  deliveryMode,
  failedRecipients: z
    .array(z.strictObject({ email: z.string(), error: z.string() }))
    .optional()
    .meta({
      description:
        'Only when one `notificationId` is asked for; while delivering, the first 100 (`failedCount` counts all).',
    }),
  trigger: z
    .strictObject({
      kind: z.literal('stock-wave'),
      episode: z.int().min(1),
      wave: z.int().min(1),
      quantity: z.int().min(1),
      perUnit: z.int().min(1),
    })
    .optional()
    .meta({
      description:
        "The automatic wave that sent it: wave `wave` of the `episode`-th rise of the stock, sized `quantity` × `perUnit`; absent on a staff member's send.",
    }),
})

export const historyPage = z.strictObject({
  success: z.literal(true),
  notifications: z.array(notificationSummary),
  ...paging,
})

const auditEntry = z.strictObject({
  at: timestamp,
  actor: z.string().meta({
    description:
      'A STAFF_TOKENS name, or `admin` / `preorder` for ADMIN_API_TOKEN / PREORDER_API_TOKEN.',
    examples: ['sato'],
  }),
  action: z.enum(AUDIT_ACTIONS),
  record: z.strictObject({
    type: z.enum(AUDIT_RECORD_TYPES).meta({
      description:
        'A record; a `product` (stock, automatic notice: `id` is the slug); a `person` (a personal-data request: `id` is the request id, never the address); a `suppression` (`id`: the first 12 digits of the address hash); a `synonym` group.',
    }),
    id: z.string(),
    productSlug: slug
      .nullable()
      .meta({ description: 'Null for a person, suppression or synonym.' }),
  }),
  from: z.string().nullable().meta({
    description:
      'The status before (`status`), the quantity before (`stock`, null: unknown), `shared` / `shop-only` when the choice to tell the customer the notes changed (`notes`).',
  }),
  to: z.string().nullable().meta({
    description:
      'The status after (`status`), the recipients queued (`send`) or only marked notified without an e-mail provider (`send-record-only`), the quantity after (`stock`), `on` / `off` (`settings`), `shared` / `shop-only` (`notes`, when that choice changed), the records found (`export`, `erase` of a person), the words (`synonym-add`); else null.',
  }),
  requestId: z.string(),
})

export const auditPage = z.strictObject({
  success: z.literal(true),
  entries: z.array(auditEntry),
  ...paging,
})

export const resumeAnswer = z.strictObject({
  success: z.literal(true),
  notificationId,
  deliveryState,
  deliveryMode,
  recipientCount: count,
  sentCount: count,
  failedCount: count,
  pendingCount: count,
  batchCount: count,
  settledBatchCount: count,
  queuedAt: timestamp,
  lastBatchAt: timestamp.nullable(),
  completedAt: timestamp.nullable(),
  started: z.boolean().meta({ description: 'Whether this call started a delivery run.' }),
})

export const stalledSweep = z.strictObject({
  success: z.literal(true),
  resumed: z.array(z.string()),
  leftForHand: z
    .array(z.string())
    .meta({ description: 'Idle for more than 23 hours: left for a person (logged).' }),
  failed: z.array(z.string()).meta({ description: 'Could not be started; tried again next run.' }),
})

export const keywordRollupAnswer = z.strictObject({
  success: z.literal(true),
  days: z
    .array(z.string().meta({ examples: ['2026-11-22'] }))
    .meta({ description: 'The UTC days rolled up by this run.' }),
  hours: count.meta({ description: 'Hours rolled up by this run.' }),
  demandDays: count.meta({
    description:
      'Closed JST day rollups of the pictures of demand written by this run (one per kind and day).',
  }),
})

const queryCount = z.strictObject({ query: z.string(), count: z.int().min(1) })

export const keywordSummary = z.strictObject({
  success: z.literal(true),
  from: timestamp,
  to: timestamp,
  totalSearches: count,
  topQueries: z.array(queryCount),
  zeroResultQueries: z.array(queryCount),
})

const searchResult = z.strictObject({
  id: z.string().meta({ examples: ['news/yoyaku-shohin-nyuka'] }),
  slug: z
    .string()
    .meta({ description: 'URL path of the page.', examples: ['/news/yoyaku-shohin-nyuka'] }),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  createdAt: z.string(),
  excerpt: z.string(),
  highlighted_title: z.string().meta({
    description: 'Title, HTML-escaped, matches wrapped in `<mark>`.',
  }),
  highlighted_excerpt: z.string().meta({
    description: 'Excerpt, HTML-escaped, matches wrapped in `<mark>`.',
  }),
  score: z.number(),
})

export const searchAnswer = z.strictObject({
  results: z.array(searchResult),
  query: z.string().meta({ description: 'The normalized query; `""` when none was given.' }),
  totalResults: count,
})

export const suggestAnswer = z.strictObject({
  query: z.string().meta({ description: 'The normalized prefix; `""` when none was given.' }),
  suggestions: z
    .array(
      z.strictObject({
        text: z.string().meta({ description: 'The title or tag, as the page writes it.' }),
        kind: z.enum(['title', 'tag']),
        slug: z
          .string()
          .nullable()
          .meta({ description: 'URL path of the page for a title; null for a tag.' }),
      }),
    )
    .max(8),
})

const synonymGroup = z.strictObject({
  id: z.string().meta({ examples: ['syn_4f9c2a7b1e3d5a60'] }),
  words: z.array(z.string()).min(2).max(10),
  createdAt: timestamp,
})

export const synonymListAnswer = z.strictObject({
  success: z.literal(true),
  groups: z.array(synonymGroup).meta({ description: 'Added by staff, oldest first.' }),
  builtIn: z
    .array(z.array(z.string()))
    .meta({ description: 'The groups of content/search-synonyms baked into this deploy.' }),
})

export const synonymAddedAnswer = z.strictObject({ success: z.literal(true), group: synonymGroup })

export const synonymDeletedAnswer = z.strictObject({ success: z.literal(true), id: z.string() })

export const unsubscribedAnswer = z.strictObject({ success: z.literal(true) })

export const openApiAnswer = z
  .looseObject({ openapi: z.string() })
  .meta({ description: 'This document.' })

export const reservationFound = z.strictObject({
  success: z.literal(true),
  reservation: reservationRecord,
})

export const preorderProducts = z.strictObject({
  success: z.literal(true),
  products: z.array(
    z.strictObject({
      productSlug: slug,
      title: z.string(),
      reservationLimit: count.nullable().meta({ description: '予約上限数; null: no cap.' }),
      heldUnits: count
        .nullable()
        .meta({ description: 'Units held by reservations not cancelled; null: no cap.' }),
      remaining: count.nullable(),
      maxPerReservation: z.int().min(1),
      opensAt: z.string().nullable(),
      closesAt: z.string().nullable(),
      releaseDate: z.string().nullable(),
      window: z.enum(['not-yet', 'open', 'closed']),
    }),
  ),
})
// --- consent, opt-out and personal data (docs/compliance.md) ---

const consentRecord = z
  .strictObject({
    id: z.string().regex(/^cns_/),
    emailHash: z.string().regex(/^[0-9a-f]{64}$/),
    kind: z.enum(['restock-notice', 'reservation']),
    recordId: z.string(),
    productSlug: slug,
    source: z.enum(['widget', 'form', 'api']),
    wordingVersion: z.string(),
    clientNetwork: z
      .string()
      .nullable()
      .meta({ examples: ['203.0.113.0/24'] }),
    createdAt: timestamp,
    wordingText: z.string().nullable().meta({ description: 'The wording the shopper saw.' }),
  })
  .meta({ description: 'A consent record with the text of its wording version.' })

export const personExport = z.strictObject({
  success: z.literal(true),
  email: z.string(),
  reservations: z.array(reservationRecord),
  subscriptions: z.array(subscriptionRecord),
  consents: z.array(consentRecord),
  notices: z.array(
    z.strictObject({ notificationId: z.string(), productSlug: slug, sentAt: timestamp }),
  ),
  suppressed: z.boolean(),
})

export const personErased = z.strictObject({
  success: z.literal(true),
  erased: z.strictObject({
    reservations: count,
    subscriptions: count,
    consents: count,
    notices: count.meta({ description: 'Notification histories the address was removed from.' }),
    claims: count,
    deliveries: count.meta({ description: 'Delivery snapshots the address was removed from.' }),
    suppressionKept: z
      .boolean()
      .meta({ description: 'The address stays suppressed, as its hash only.' }),
  }),
})

export const suppressionList = z.strictObject({
  success: z.literal(true),
  suppressions: z.array(
    z.strictObject({
      emailHash: z.string().regex(/^[0-9a-f]{64}$/),
      email: z.string().nullable().meta({ description: 'null once its person was erased.' }),
      reason: z.enum(['bounce', 'complaint']),
      suppressedAt: timestamp,
    }),
  ),
})

export const suppressionLifted = z.strictObject({ success: z.literal(true) })

export const webhookAnswer = z.strictObject({
  success: z.literal(true),
  handled: z.enum(['suppressed', 'ignored', 'duplicate']),
  reason: z.enum(['bounce', 'complaint']).optional(),
  unsubscribed: count.optional(),
  eventType: z.string().optional(),
})

export const confirmedAnswer = z.strictObject({
  success: z.literal(true),
  alreadyConfirmed: z.boolean(),
})

export const purgeAnswer = z.strictObject({
  success: z.literal(true),
  deleted: z.strictObject({
    subscriptions: count,
    unconfirmed: count,
    consents: count,
    stockEvents: count.meta({ description: 'Stock webhook replay marks older than 30 days.' }),
    exports: count.meta({ description: 'CSV exports of lists made more than a day ago.' }),
    legacyListing: count.meta({
      description:
        'Blobs older deploys left of their listings (snapshots/, journal/, the v1 history index).',
    }),
  }),
})

// Stock and automatic restock notices (issue 19)

export const autoNoticeAnswer = z.strictObject({
  enabled: z.boolean(),
  emailTitle: z.string(),
  emailBody: z.string(),
  perUnit: z.int().min(1).meta({ description: 'Subscribers notified per unit in stock.' }),
  intervalMinutes: z.int().min(1).meta({ description: 'Minutes between two waves.' }),
})

export const stockRow = z.strictObject({
  productSlug: z.string(),
  quantity: count.nullable().meta({ description: 'null while no source has reported one.' }),
  updatedAt: timestamp.nullable().meta({ description: 'When the quantity last changed.' }),
  waiting: count.meta({
    description:
      'Subscribers waiting: pending, not archived, not opted out (or consented again after), confirmed where double opt-in asked for it, address not suppressed. Who a send or the next wave would e-mail.',
  }),
  notWaiting: z
    .strictObject({ optedOut: count, unconfirmed: count, suppressed: count })
    .meta({ description: 'Pending subscribers who are not waiting, by reason.' }),
  auto: autoNoticeAnswer.nullable(),
  nextWaveAt: timestamp
    .nullable()
    .meta({ description: 'When the next automatic wave is due, or null when none is.' }),
})

export const stockListAnswer = z.strictObject({
  success: z.literal(true),
  stock: z.array(stockRow),
})

const startedWave = z
  .discriminatedUnion('state', [
    z.strictObject({
      state: z.literal('sent'),
      notificationId,
      recipients: count.meta({ description: 'Subscribers the wave e-mailed (or recorded).' }),
      deliveryMode: z.enum(['email', 'record-only']).meta({
        description: '`record-only`: no e-mail provider; the recipients were only marked notified.',
      }),
      nextAt: timestamp.meta({ description: 'When the next wave is due while stock lasts.' }),
    }),
    z.strictObject({ state: z.literal('nobody-waiting') }),
    z.strictObject({ state: z.literal('later') }),
  ])
  .optional()
  .meta({
    description:
      'Present when this change started the automatic waves: what the first wave did. `later`: another send held the product or the wave failed; it stays due for the scheduled sweep.',
  })

const stockChange = z.strictObject({
  productSlug: z.string(),
  quantity: count,
  previous: count.nullable().meta({ description: 'The quantity before (null: unknown).' }),
  wave: startedWave,
})

const stockErrors = z
  .array(
    z.strictObject({
      productSlug: z.string().optional(),
      sku: z.string().optional(),
      error: z.string(),
    }),
  )
  .optional()
  .meta({ description: 'Items naming no product (`Product not found`); omitted when none.' })

export const stockUpdated = z.strictObject({
  success: z.literal(true),
  updated: z.array(stockChange),
  errors: stockErrors,
})

export const stockPreviewAnswer = z.strictObject({
  success: z.literal(true),
  changes: z.array(
    z.strictObject({
      productSlug: z.string(),
      previous: count.nullable().meta({ description: 'The quantity now (null: unknown).' }),
      quantity: count.meta({ description: 'The quantity the change would set.' }),
      notify: count.meta({
        description:
          'Waiting subscribers the automatic wave this change would start e-mails at once (0: it starts none).',
      }),
    }),
  ),
  errors: stockErrors,
})

export const stockWebhookAnswer = z.union([
  z.strictObject({ success: z.literal(true), duplicate: z.literal(true) }),
  z.strictObject({
    success: z.literal(true),
    duplicate: z.literal(false),
    updated: z.array(stockChange),
    errors: stockErrors,
  }),
])

export const autoSaved = z.strictObject({
  success: z.literal(true),
  productSlug: z.string(),
  auto: autoNoticeAnswer,
})

export const stockReconciled = z.strictObject({
  success: z.literal(true),
  feed: z.enum(['read', 'failed', 'not-configured']),
  wavesSent: count.meta({ description: 'Automatic waves this run sent.' }),
  changed: count.meta({ description: 'Products whose quantity the feed changed.' }),
})

// Record indexes (issue 21)

export const indexVerifyAnswer = z.strictObject({
  success: z.literal(true),
  verified: count.meta({ description: 'Index partitions compared with their key listing.' }),
  rebuilding: z.boolean().meta({
    description: 'Some index is missing: the background rebuild was started.',
  }),
})

const jstDay = z.string().meta({ description: 'A JST day.', examples: ['2026-11-23'] })
const queryTrend = z.strictObject({
  query: z.string(),
  count: z.int().min(1),
  previous: count.meta({ description: 'The same query in the period before.' }),
})

/** POST /api/admin/overview: the pictures of demand (docs/dashboard.md "Overview"). */
export const overviewAnswer = z.strictObject({
  success: z.literal(true),
  days: z.union([z.literal(7), z.literal(30), z.literal(90)]),
  from: jstDay,
  to: jstDay,
  series: z.array(
    z.strictObject({
      day: jstDay,
      reservations: count,
      signups: count,
      sent: count,
      failed: count,
      searches: count,
      zeroSearches: count,
    }),
  ),
  products: z.array(
    z.strictObject({
      productSlug: z.string(),
      title: z.string(),
      waiting: count,
      reservedUnits: count,
      cap: count.nullable(),
    }),
  ),
  notices: z.array(
    z.strictObject({
      id: z.string(),
      productSlug: z.string(),
      title: z.string(),
      timestamp,
      sent: count,
      failed: count,
      clicks: count,
      deliveryMode,
    }),
  ),
  totalSearches: count,
  distinctQueries: count,
  distinctZeroResultQueries: count,
  topQueries: z.array(queryTrend),
  zeroResultQueries: z.array(queryTrend),
})
/** A CSV export of a list (issue 21): POST /api/admin/exports and /status. */
export const exportAnswer = z.strictObject({
  success: z.literal(true),
  export: z.strictObject({
    exportId: z.string().meta({ examples: ['exp_0b7e4f3c-5d0e-4a51-9d43-2f1f7c1f3a10'] }),
    list: z.enum(['reservations', 'notify', 'reservations-archive', 'notify-archive']),
    state: z.enum(['queued', 'running', 'done', 'failed']),
    fileName: z.string().meta({ description: 'The file name the download gives (Japanese).' }),
    totalRows: count.nullable().meta({ description: 'Rows the file holds; null until read.' }),
    writtenRows: count,
    parts: count,
    bytes: count,
    createdAt: z.string(),
    updatedAt: z.string(),
    error: z.string().optional().meta({ description: 'Why it failed, in Japanese for staff.' }),
    downloadPath: z.string().optional().meta({
      description: 'Once `done`: GET it with the admin token (add `&part=n` for one part).',
    }),
  }),
})
