import type { Logger } from '../log.js'
import type { DeliveryResult } from './delivery.js'

/** The part of a Netlify `Context` the dispatcher needs. */
export interface BackgroundContext {
  waitUntil?: (promise: Promise<unknown>) => void
}

/** One notification to send: called at once, it starts the attempt. */
export type Delivery = () => Promise<DeliveryResult>

/**
 * Fire and forget (§6, D10): starts every delivery at once, each independent of the others,
 * hands the whole to `context.waitUntil` so the function lets all of them finish after the
 * response, and returns without waiting. The returned promise (never rejecting) is for callers
 * that want the outcomes, such as tests.
 */
export function dispatchNotifications(
  context: BackgroundContext,
  log: Logger,
  deliveries: readonly Delivery[],
): Promise<DeliveryResult[]> {
  const attempts = deliveries.map((delivery) => {
    try {
      return delivery()
    } catch (error) {
      return Promise.reject(error)
    }
  })
  const all = Promise.allSettled(attempts).then((settled) =>
    settled.flatMap((result) => {
      if (result.status === 'fulfilled') return [result.value]
      // why: notifiers never throw; if one does anyway, it must not escape into the platform
      log.error('notify.unexpected_failure', result.reason)
      return []
    }),
  )
  context.waitUntil?.(all)
  return all
}
