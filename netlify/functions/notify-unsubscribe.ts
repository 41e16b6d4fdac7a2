import type { Config } from '@netlify/functions'
import { handleUnsubscribe } from '../../src/lib/restock/unsubscribeRequest.js'

export default handleUnsubscribe

// why: a literal, because Netlify reads this config from the source without running it;
// limits and reasons: README "Abuse protection"
export const config: Config = {
  path: '/api/notify-unsubscribe',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
