import type { Config } from '@netlify/functions'
import { SYSTEM_ACTORS } from '../../src/lib/actors.js'
import { z } from '../../src/generated/zod.js'
import { purgeExpiredData } from '../../src/lib/compliance/retentionPurge.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'

/**
 * Scheduled function: once a day, deletes what the retention periods of docs/compliance.md let
 * go. Netlify calls it with `{"next_run": …}`; it has no public path.
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'none',
  body: z.object({ next_run: z.string().optional() }),
  handle: async ({ context, config, log }) => {
    const services = openServices(context, config, log, { actor: SYSTEM_ACTORS.retentionPurge })
    return {
      deleted: await purgeExpiredData({
        repositories: services.repositories,
        audit: services.audit,
        log,
        retentionDays: config.retentionDays,
        now: services.now,
      }),
    }
  },
})

export const config: Config = { schedule: '@daily' }
