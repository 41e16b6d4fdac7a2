import { PAGE_INVALID, PAGE_SIZE_INVALID } from '../../lib/paging.js'
import { auditListSchema } from '../../lib/audit/auditTrail.js'
import { adminErrors, failure, mergeResponses, type ApiOperation } from './operationSpec.js'
import * as answers from './responseSchemas.js'

/** The audit trail: who changed what. */
export const AUDIT_OPERATIONS: ApiOperation[] = [
  {
    method: 'post',
    route: 'adminAuditList',
    operationId: 'listAuditEntries',
    tag: 'Admin',
    summary: 'Who changed what: the audit trail, newest first, paged',
    description:
      'Every change made through the admin API (status, notes, archive, unarchive, delete, send) is appended as its own entry, never rewritten, with the actor its token names (a `STAFF_TOKENS` name, or `admin` / `preorder`). Filtered by `recordId` and/or `actor`. Entries hold ids and statuses only, never personal data, and outlive a deleted record. Paging as D5. Read-only.',
    body: {
      schema: auditListSchema,
      view: 'input',
      example: { recordId: 'res_3f2a9c1e-7b4d-4e8f-a1b2-c3d4e5f6a7b8', page: 1, pageSize: 20 },
    },
    responses: mergeResponses(
      {
        200: {
          description: 'One page.',
          body: answers.auditPage,
          examples: {
            success: {
              success: true,
              entries: [
                {
                  at: '2026-11-23T01:00:00.000Z',
                  actor: 'sato',
                  action: 'status',
                  record: {
                    type: 'reservation',
                    id: 'res_3f2a9c1e-7b4d-4e8f-a1b2-c3d4e5f6a7b8',
                    productSlug: 'chasen-takayama',
                  },
                  from: 'pending',
                  to: 'confirmed',
                  requestId: '01JDQ7ZK5D3N2W8Y4X6V9T0R1S',
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
          'recordId must be a string',
          'actor must be a string',
        ),
      },
      adminErrors(),
    ),
  },
]
