import type { Logger } from '../log.js'

/** URL path of the background function that delivers restock e-mails (file `notify-deliver-background.ts`). */
export const DELIVERY_FUNCTION_PATH = '/.netlify/functions/notify-deliver-background'

/** The delivery function could not be started; nothing was sent by this attempt. */
export class DeliveryStartError extends Error {
  override name = 'DeliveryStartError'
}

export interface DeliveryStarterOptions {
  /** Origin of the current deploy (the incoming request's), so previews deliver with their own code and data. */
  origin: string
  /** A fresh delivery ticket (deliveryTicket.ts) for one run of this notification. */
  ticketFor: (notificationId: string) => string
  log: Logger
  /** Hands over a call still under way when we stop waiting (Netlify's `context.waitUntil`). */
  defer: (work: Promise<unknown>) => void
  /** How long to wait for the platform's 202. Default: 3000 ms. */
  acceptWaitMs?: number
  /** Default: global `fetch`. */
  fetch?: typeof fetch
}

/**
 * The HTTP call that starts a run of the background delivery function for a notification,
 * authenticated by a delivery ticket. On Netlify the 202 comes at once;
 * the local emulation answers only when the function ends, so after `acceptWaitMs` the call is
 * taken as started and left to finish under `defer`. Rejects with DeliveryStartError when the
 * platform refuses the call or the connection fails within that time.
 */
export function deliveryStarter(options: DeliveryStarterOptions) {
  const doFetch = options.fetch ?? fetch
  const waitMs = options.acceptWaitMs ?? 3000
  return async (notificationId: string): Promise<void> => {
    const url = new URL(DELIVERY_FUNCTION_PATH, options.origin)
    const call = doFetch(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${options.ticketFor(notificationId)}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ notificationId }),
    }).then(async (response) => {
      await response.body?.cancel()
      if (!response.ok) {
        throw new DeliveryStartError(`The delivery function answered HTTP ${response.status}`)
      }
    })
    let timer: ReturnType<typeof setTimeout> | undefined
    const waited = new Promise<'waiting'>((resolve) => {
      timer = setTimeout(() => resolve('waiting'), waitMs)
    })
    try {
      const first = await Promise.race([call.then(() => 'started' as const), waited])
      if (first === 'waiting') {
        options.defer(
          call.catch((error) =>
            options.log.error('restock.delivery.start_failed_late', error, { notificationId }),
          ),
        )
      }
    } catch (error) {
      if (error instanceof DeliveryStartError) throw error
      throw new DeliveryStartError(`The delivery function could not be reached: ${String(error)}`)
    } finally {
      clearTimeout(timer)
    }
  }
}
