import { z } from 'zod'
import { AUDIT_ACTIONS, AUDIT_RECORD_TYPES } from '../../lib/storage/auditRepository.js'
import { DELIVERY_STATES } from '../../lib/storage/records.js'
import {
  count,
  deliveryMode,
  notificationId,
  paging,
  slug,
  timestamp,
  variantId,
} from './answerParts.js'

/**
 * Answers about restock notices: the send, the history, the audit trail and the resumption of
 * deliveries (responseSchemas.ts).
 */

const deliveryState = z.enum(DELIVERY_STATES).meta({
  description: '`queued` → `delivering` → `complete`; records older than delivery are `complete`.',
})

export const sendSummary = z.strictObject({
  success: z.literal(true),
  notificationId,
  sentCount: count.meta({
    description: 'Recipients marked notified (no e-mail provider) or queued for delivery.',
  }),
  recipientEmails: z.array(z.string()),
  timestamp,
  sendAt: timestamp.optional().meta({
    description:
      'A scheduled send: when it goes (it has reached nobody yet: `sentCount` 0). Absent on a send made now.',
  }),
  scheduledSendId: z
    .string()
    .regex(/^sch_/)
    .optional()
    .meta({ description: 'A scheduled send: its id. Absent on a send made now.' }),
})

const notificationSummary = z.strictObject({
  id: notificationId,
  productSlug: slug,
  variant: variantId.optional().meta({
    description:
      'The variant the notice was for (a variant’s send or wave: only those waiting for it); absent for a whole product.',
  }),
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
        'A record; a `product` (stock, automatic notice: `id` is the slug, or `slug/variantId` for a variant); a `person` (a personal-data request: `id` is the request id, never the address); a `suppression` (`id`: the first 12 digits of the address hash); a `synonym` group.',
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
