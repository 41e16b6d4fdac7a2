import type { Logger } from '../log.js'
import { describeFetchFailure } from '../notifiers/delivery.js'
import { stockTableFromText, StockTableFormatError } from './stockTable.js'
import { applyStockLines, type StockUpdateOptions, type StockUpdateResult } from './stockUpdates.js'

/**
 * The scheduled reconciliation: reads the whole stock from `STOCK_FEED_URL` (JSON or CSV) and
 * applies it like any other source, so a webhook that was lost is caught at the next run. Only
 * quantities that differ are written; each change is logged (`stock.changed`, `source: feed`).
 */

/** Largest feed read, in bytes (a few hundred thousand products). */
export const MAX_FEED_BYTES = 5 * 1024 * 1024

export interface FeedOptions extends Omit<StockUpdateOptions, 'source' | 'eventId'> {
  url: string
  timeoutMs: number
  log: Logger
  /** Default: global `fetch`. */
  fetch?: typeof fetch
}

export type FeedRun =
  | { state: 'read'; lines: number; rejectedRows: number; result: StockUpdateResult }
  | { state: 'failed'; error: string }

/** Reads the feed and applies it; a feed that cannot be read is logged and changes nothing. */
export async function reconcileStockFeed(options: FeedOptions): Promise<FeedRun> {
  const { log } = options
  const doFetch = options.fetch ?? fetch
  const signal = AbortSignal.timeout(options.timeoutMs)
  let text: string
  let contentType: string | null
  try {
    const response = await doFetch(options.url, {
      signal,
      headers: { Accept: 'application/json, text/csv' },
    })
    if (!response.ok) {
      await response.body?.cancel()
      return failed(`HTTP ${response.status}`)
    }
    const declared = Number(response.headers.get('content-length') ?? 0)
    if (declared > MAX_FEED_BYTES) {
      await response.body?.cancel()
      return failed(`the feed is larger than ${MAX_FEED_BYTES} bytes`)
    }
    contentType = response.headers.get('content-type')
    text = await response.text()
  } catch (error) {
    return failed(describeFetchFailure(error, signal))
  }
  let table
  try {
    table = stockTableFromText(text, contentType)
  } catch (error) {
    if (error instanceof StockTableFormatError) return failed(error.message)
    throw error
  }
  const result = await applyStockLines(table.lines, { ...options, source: 'feed' })
  const changed = result.updated.filter((change) => change.previous !== change.quantity)
  log.info('stock.feed.reconciled', {
    lines: table.lines.length,
    changed: changed.length,
    changes: changed.map(({ productSlug, previous, quantity }) => ({
      productSlug,
      from: previous,
      to: quantity,
    })),
    unknownProducts: result.errors.map((error) => error.sku ?? error.productSlug),
    rejectedRows: table.rejectedRows.slice(0, 20),
  })
  return {
    state: 'read',
    lines: table.lines.length,
    rejectedRows: table.rejectedRows.length,
    result,
  }

  function failed(error: string): FeedRun {
    // why: the feed URL may carry a token; it is never logged
    log.warn('stock.feed.failed', {
      error,
      fix: 'check STOCK_FEED_URL answers 200 with JSON [{sku|productSlug, quantity}] or CSV with a header row',
    })
    return { state: 'failed', error }
  }
}
