import type { Logger } from '../log.js'
import type { MarkedKind } from '../storage/demandLog.js'
import type { Repositories } from '../storage/repositories.js'
import { jstDay } from './demandDays.js'

/**
 * Writes the day marker of an event that has happened (a reservation, a sign-up, a settled batch
 * of restock e-mails): one blob of its own, so a rush never contends. A failure is logged and
 * never fails the event itself: the picture then misses one event, the record is intact.
 */
export async function markDemand(
  services: { repositories: Pick<Repositories, 'demand'>; log: Logger },
  kind: MarkedKind,
  eventId: string,
  { at, count = 1 }: { at: number; count?: number },
): Promise<void> {
  try {
    await services.repositories.demand.mark(kind, jstDay(at), eventId, count)
  } catch (error) {
    services.log.warn('demand.mark_failed', {
      kind,
      eventId,
      error: error instanceof Error ? error.message : String(error),
    })
  }
}
