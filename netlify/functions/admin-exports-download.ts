import type { Config } from '@netlify/functions'
import { exportDownloadEndpoint } from '../../src/lib/endpoints/exportEndpoints.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(exportDownloadEndpoint())

export const config: Config = { path: '/api/admin/exports/download' }
