import type { Logger } from '../log.js'
import type { RequestContext } from '../requestContext.js'
import { openAuditRepository } from '../storage/auditRepository.js'
import { auditRecorder, type AuditRecorder } from './auditTrail.js'

/**
 * The audit recorder of one admin request: its actor (auth), its request id (the logger), the
 * deploy context's trail. An endpoint without a token has no actor and records nothing.
 */
export function openAuditRecorder(
  context: RequestContext,
  actor: string | null,
  log: Logger,
): AuditRecorder | undefined {
  if (actor === null) return undefined
  return auditRecorder({ repository: openAuditRepository(context), actor, log })
}
