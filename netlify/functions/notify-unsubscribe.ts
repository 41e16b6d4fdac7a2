import type { Config } from '@netlify/functions'
import { handleUnsubscribe } from '../../src/lib/restock/unsubscribeRequest.js'

export default handleUnsubscribe

export const config: Config = { path: '/api/notify-unsubscribe' }
