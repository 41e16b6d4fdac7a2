import { openDeliveryJobStore } from '../restock/deliveryJobStore.js'
import { startDeliveryFrom, type DeliveryScope } from '../restock/deliveryWorker.js'
import { sendRestockWave, waveNotificationId } from '../restock/sendRestockNotification.js'
import { openRepositories } from '../storage/repositories.js'
import type { WaveOptions } from './stockWaves.js'

/** What the automatic waves of a request need: the stock, and the send path of a manual send. */
export function waveOptionsFrom(scope: DeliveryScope, now: () => number = Date.now): WaveOptions {
  const { context, config, log } = scope
  const repositories = openRepositories(context)
  const sendOptions = {
    repositories,
    jobs: openDeliveryJobStore(context),
    config,
    log,
    startDelivery: startDeliveryFrom(scope),
    now,
  }
  return {
    stock: repositories.stock,
    sendWave: (notice) => sendRestockWave(notice, sendOptions),
    waveNotificationId,
    siteUrl: config.siteUrl,
    log,
    now,
  }
}
