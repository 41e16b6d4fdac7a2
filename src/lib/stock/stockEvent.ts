import type { WebhookEventLog } from '../storage/webhookEvents.js'
import type { StockLine } from './stockSchemas.js'
import { applyStockLines, type StockUpdateOptions, type StockUpdateResult } from './stockUpdates.js'

/** A signed stock webhook's event: its id and its lines. */
export interface StockEvent {
  id: string
  items: StockLine[]
}

export type StockEventOutcome = { duplicate: true } | ({ duplicate: false } & StockUpdateResult)

export interface StockEventOptions extends Omit<StockUpdateOptions, 'source' | 'eventId'> {
  events: WebhookEventLog
}

/**
 * Applies one webhook event once: an id seen before (or being applied by another request right
 * now) changes nothing and is answered as a duplicate.
 */
export async function receiveStockEvent(
  event: StockEvent,
  options: StockEventOptions,
): Promise<StockEventOutcome> {
  const { now } = options
  const start = await options.events.begin(event.id, now())
  if (start !== 'new') {
    options.log.info('stock.webhook.duplicate', { eventId: event.id, state: start })
    return { duplicate: true }
  }
  const result = await applyStockLines(event.items, {
    ...options,
    source: 'webhook',
    eventId: event.id,
  })
  await options.events.complete(event.id, now())
  return { duplicate: false, ...result }
}
