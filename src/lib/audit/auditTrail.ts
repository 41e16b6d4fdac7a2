import { z } from '../../generated/zod.js'
import { pagingFields } from '../paging.js'
import type { Logger } from '../log.js'
import type { AuditEntry, AuditRepository } from '../storage/auditRepository.js'

/**
 * Who made a request: a `STAFF_TOKENS` name, or `admin` / `preorder` for ADMIN_API_TOKEN /
 * PREORDER_API_TOKEN (http/auth.ts answers it). Written to the audit trail and logs; never put
 * in an answer.
 */
export type Actor = string

/** A change as a service reports it; the recorder adds when, who and the request. */
export type AuditChange = Omit<AuditEntry, 'at' | 'actor' | 'requestId'>

/** Where a service writes the changes it made. */
export interface AuditRecorder {
  /**
   * Appends one entry per change. A failed write does not undo the change (it is made already):
   * it is logged at error level with the whole entry, so the line keeps what the trail missed.
   */
  record(changes: readonly AuditChange[]): Promise<void>
}

export interface AuditRecorderOptions {
  repository: AuditRepository
  /** Who made the request (auth's actor). */
  actor: string
  log: Logger
  /** The request's clock (ms since the epoch). */
  now: () => number
}

export function auditRecorder(options: AuditRecorderOptions): AuditRecorder {
  return {
    async record(changes) {
      for (const change of changes) {
        const entry: AuditEntry = {
          at: new Date(options.now()).toISOString(),
          actor: options.actor,
          requestId: options.log.requestId,
          ...change,
        }
        try {
          await options.repository.append(entry)
        } catch (error) {
          options.log.error('audit.appendFailed', error, { entry })
        }
      }
    },
  }
}

const optionalText = (message: string) =>
  z
    .string({ error: message })
    .nullish()
    .transform((value) => value || undefined)

/** `POST /api/admin/audit/list`: optional `recordId`, `actor`; `page`, `pageSize` as D5. */
export const auditListSchema = z.object({
  ...pagingFields,
  recordId: optionalText('recordId must be a string'),
  actor: optionalText('actor must be a string'),
})

export type AuditListRequest = z.output<typeof auditListSchema>

/** One page of the trail, newest first (paging as D5). */
export async function listAuditEntries(repository: AuditRepository, request: AuditListRequest) {
  const { page, pageSize } = request
  const { entries, total } = await repository.list(
    { recordId: request.recordId, actor: request.actor },
    (page - 1) * pageSize,
    pageSize,
  )
  return { entries, total, page, pageSize, totalPages: Math.ceil(total / pageSize) }
}
