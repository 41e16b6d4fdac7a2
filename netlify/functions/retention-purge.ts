import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { purgeExpiredData } from '../../src/lib/compliance/retentionPurge.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { openComplianceStores } from '../../src/lib/storage/complianceStores.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'

/**
 * Scheduled function: once a day, deletes what the retention periods of docs/compliance.md let
 * go. Netlify calls it with `{"next_run": …}`; it has no public path.
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'none',
  body: z.object({ next_run: z.string().optional() }),
  handle: async ({ context, config, log }) => {
    const { consents, store } = openComplianceStores(context)
    const deleted = await purgeExpiredData({
      repositories: openRepositories(context),
      consents,
      store,
      log,
      retentionDays: config.retentionDays,
      now: () => new Date(),
    })
    return jsonResponse({ success: true, deleted })
  },
})

export const config: Config = { schedule: '@daily' }
