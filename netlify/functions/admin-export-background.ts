import type { Config } from '@netlify/functions'
import { exportRunEndpoint } from '../../src/lib/endpoints/exportEndpoints.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

/**
 * Background function (15-minute limit, the platform answers 202 at once) that writes one CSV
 * export (admin/listExports.ts). Started by POST /api/admin/exports with an export ticket;
 * whatever it returns, the caller gets Netlify's empty 202: ask the status endpoint.
 */
export default defineEndpoint(exportRunEndpoint())

export const config: Config = { background: true }
