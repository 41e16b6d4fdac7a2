import type { Config } from '@netlify/functions'
import { exportStatusEndpoint } from '../../src/lib/endpoints/exportEndpoints.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(exportStatusEndpoint())

export const config: Config = { path: '/api/admin/exports/status' }
