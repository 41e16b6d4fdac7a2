import type { Config, Context } from '@netlify/functions'
import { createLogger } from '../../src/lib/log.js'
import { rollUpClosedPeriods } from '../../src/lib/search/analytics/keywordRollups.js'
import { openKeywordLogRepository } from '../../src/lib/storage/keywordLogRepository.js'

/**
 * Scheduled every hour (no URL): rolls up the keyword log's closed hours and days so that
 * POST /api/admin/search-keywords reads a few dozen blobs (docs/search.md). A failure is logged;
 * the next run, or the next summary, builds what is missing.
 */
export default async (_req: Request, context: Context): Promise<Response> => {
  const log = createLogger(context?.requestId || crypto.randomUUID())
  try {
    const repository = openKeywordLogRepository(context)
    const rolled = await rollUpClosedPeriods(repository, { now: Date.now() })
    log.info('search.keywords.rolled_up', { days: rolled.days, hours: rolled.hours.length })
  } catch (error) {
    log.error('search.keywords.rollup_failed', error)
  }
  return new Response(null, { status: 204 })
}

export const config: Config = { schedule: '@hourly' }
