import type { Config } from '@netlify/functions'
import { createExportEndpoint } from '../../src/lib/endpoints/exportEndpoints.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(createExportEndpoint())

export const config: Config = { path: '/api/admin/exports' }
