import { z } from 'zod'
import {
  RESERVATION_STATUSES,
  SUBSCRIPTION_STATUSES,
  UNSUBSCRIBE_REASONS,
} from '../../lib/storage/records.js'
import { count, paging, rebuilding, slug, timestamp, unreadable, variantId } from './answerParts.js'

/**
 * Answers about reservations and restock subscriptions: the records, lists, statistics, bulk
 * actions, the public forms, pre-orders and CSV exports (responseSchemas.ts).
 */

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
    email: z.string().meta({
      description: 'The address; empty for a reservation of a LINE sign-up (`channel: "line"`).',
    }),
    channel: z.literal('line').optional().meta({
      description:
        'Where its messages go: `line` (LINE push to `lineUserId`, made from a LINE sign-up’s hold); absent: e-mail.',
    }),
    lineUserId: z.string().optional().meta({
      description: 'The LINE user id it was made for (personal data, erased with the person).',
    }),
    lineDelivery: z
      .strictObject({
        status: z.enum(['failed', 'not-friend', 'not-configured']).meta({
          description:
            '`not-friend`: the shopper does not have the official account as a friend (not pushed); `failed`: LINE refused the push or did not answer; `not-configured`: LINE is not configured.',
        }),
        at: z.string().meta({ description: 'When it was found (ISO 8601).' }),
        reason: z.string().meta({
          description: 'LINE’s error (`HTTP 400`, `timeout`) or what kept it from being pushed.',
        }),
      })
      .optional()
      .meta({
        description:
          'The last LINE message of a `channel: "line"` reservation that did not reach the shopper; absent when none, or once a later message was pushed. The dashboard shows it in Japanese.',
      }),
    productSlug: slug,
    variant: variantId.optional().meta({
      description: 'The variant reserved (its id); absent for a product without variants.',
    }),
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
    source: z.literal('restock-hold').optional().meta({
      description:
        '`restock-hold`: made on the お取り置き page from a unit held for a restock e-mail’s recipient (quantity 1); absent: made by the reservation form.',
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
    email: z
      .string()
      .meta({ description: 'The address; empty for a LINE sign-up (`channel: "line"`).' }),
    channel: z.literal('line').optional().meta({
      description: 'Where the notices go: `line` (LINE push to `lineUserId`); absent: e-mail.',
    }),
    lineUserId: z.string().optional().meta({
      description: 'The LINE user id of a LINE sign-up (personal data, erased with the person).',
    }),
    productSlug: slug,
    variant: variantId.optional().meta({
      description: 'The variant waited for (its id); absent for a product without variants.',
    }),
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
    unsubscribeReason: z.enum(UNSUBSCRIBE_REASONS).optional().meta({
      description:
        'Why it ended without its subscriber asking: `expired` (the 「引き続き…」 e-mail went unanswered 14 days; 期限切れ), `purchased` (the order webhook reported a purchase). Dropped when staff change the status.',
    }),
    keepAskedAt: timestamp.optional().meta({
      description:
        'When it was e-mailed 「引き続き入荷のお知らせを希望されますか」 after SIGNUP_EXPIRY_DAYS of waiting.',
    }),
    keptAt: timestamp.optional().meta({
      description: 'When its subscriber answered that e-mail with the keep link.',
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

const availabilityState = {
  reservable: z.boolean().meta({ description: 'Whether one unit could be reserved now.' }),
  remaining: count.nullable().meta({ description: 'Units left under the cap; null: no cap.' }),
  opensAt: z.string().nullable(),
  closesAt: z.string().nullable(),
  releaseDate: z.string().nullable(),
}

export const availabilityAnswer = z.strictObject({
  success: z.literal(true),
  productSlug: slug,
  ...availabilityState,
  lineSignup: z.boolean().meta({
    description:
      'Whether the shop takes restock sign-ups with LINE (all four LINE channel variables set): `<shop-notify>` then offers 「LINEで受け取る」.',
  }),
  variants: z
    .array(
      z.strictObject({
        variant: variantId,
        name: z.string().meta({ description: 'The variant’s name, shown to people.' }),
        ...availabilityState,
        stock: count.nullable().meta({
          description:
            'Units in stock (POST /api/admin/stock, the stock webhook or feed); null while none is known. The widgets show 在庫なし at 0.',
        }),
      }),
    )
    .optional()
    .meta({
      description:
        'A product with variants: each variant’s state (its own cap, window and release date, else the product’s), in catalogue order; the fields above then sum them up (`reservable` when one variant is, `remaining` the sum when every variant has a cap). Absent for a product without variants.',
    }),
})

export const reservationCreated = z.strictObject({
  success: z.literal(true),
  reservationId: reservationRecord.shape.id,
})

export const subscriptionCreated = z.strictObject({
  success: z.literal(true),
  subscriptionId: subscriptionRecord.shape.id,
  confirmationRequired: z.literal(true).optional().meta({
    description:
      'Double opt-in (`NOTIFY_DOUBLE_OPT_IN`): the sign-up waits until the shopper opens the link e-mailed to them; absent when no confirmation is needed.',
  }),
  queue: z
    .strictObject({
      place: z
        .number()
        .int()
        .min(1)
        .meta({
          description: 'Its place: 1 is the first a restock wave e-mails.',
          examples: [12],
        }),
      waiting: z
        .number()
        .int()
        .min(1)
        .meta({
          description: 'Everyone waiting in the same queue, this sign-up included.',
          examples: [40],
        }),
    })
    .optional()
    .meta({
      description:
        'The sign-up’s place in the queue of its product (of its variant, for a product with variants), counted as the restock waves choose: the waiting subscribers, oldest sign-up first. The widget shows it as 「12 番目（入荷待ち 40 人）」. Absent while the sign-up is not waiting: it waits for its double opt-in confirmation (`confirmationRequired`; it joins the queue when confirmed), or no restock e-mail may reach the address (suppressed).',
    }),
})

const recordStats = z.strictObject({
  total: count,
  byStatus: z.record(z.string(), count),
  byProduct: z.record(z.string(), count),
  byVariant: z.record(z.string(), z.record(z.string(), count)).optional().meta({
    description:
      'Records of products with variants, per product slug and variant id (`{"mino-mug": {"ai": 3}}`); present only when some record has a variant.',
  }),
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

// why: present exactly when the request sent pageSize, cursor or q
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

export const reservationFound = z.strictObject({
  success: z.literal(true),
  reservation: reservationRecord,
})

export const preorderProducts = z.strictObject({
  success: z.literal(true),
  products: z.array(
    z.strictObject({
      productSlug: slug,
      variant: variantId.optional().meta({
        description:
          'A product with variants has one line per variant (its own settings, else the product’s).',
      }),
      title: z
        .string()
        .meta({ description: 'A variant’s line names it: 「美濃焼 マグカップ（藍）」.' }),
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
/** A CSV export of a list: POST /api/admin/exports and /status. */
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
