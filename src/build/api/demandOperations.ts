import { z } from 'zod'
import { overviewRequestSchema } from '../../lib/overview/demandOverview.js'
import {
  adminErrors,
  failure,
  mergeResponses,
  METHOD_NOT_ALLOWED,
  type ApiOperation,
} from './operationSpec.js'
import * as answers from './responseSchemas.js'

/** Pictures of demand and the click link of restock e-mails (docs/dashboard.md). */
export const DEMAND_OPERATIONS: ApiOperation[] = [
  {
    method: 'post',
    route: 'adminOverview',
    operationId: 'getDemandOverview',
    tag: 'Admin',
    summary: 'Pictures of demand: per-day series, demand per product, notices, search trends',
    description:
      'Counted on the server from day rollups and listings, never from every record: per JST day reservations created, restock sign-ups, restock e-mails sent and failed, searches and zero-result searches; per product waiting subscribers and reserved units against the cap; per restock notice of the period (newest 50) e-mails sent, failed, clicks on the product link, the orders counted for it by the order webhook (`orders`, `ordersAfterClick`, `units`, `revenue` per currency, `conversionRate` = orders per e-mail sent), and its `deliveryMode` (`record-only`: no e-mail provider, nobody was e-mailed); the top 20 and zero-result queries (UTC days of the keyword log) with their count in the period before.',
    body: { schema: overviewRequestSchema, view: 'input', example: { days: 7 } },
    responses: mergeResponses(
      {
        200: {
          description: 'The overview.',
          body: answers.overviewAnswer,
          examples: {
            success: {
              success: true,
              days: 7,
              from: '2026-11-17',
              to: '2026-11-23',
              series: [
                {
                  day: '2026-11-23',
                  reservations: 3,
                  signups: 5,
                  sent: 10,
                  failed: 1,
                  searches: 40,
                  zeroSearches: 2,
                },
              ],
              products: [
                {
                  productSlug: 'chasen-takayama',
                  title: '高山茶筌',
                  waiting: 12,
                  reservedUnits: 8,
                  cap: 20,
                },
              ],
              notices: [
                {
                  id: 'notif_1763859600000',
                  productSlug: 'chasen-takayama',
                  title: '高山茶筌',
                  timestamp: '2026-11-23T01:00:00.000Z',
                  sent: 10,
                  failed: 1,
                  clicks: 4,
                  orders: 2,
                  ordersAfterClick: 1,
                  units: 2,
                  revenue: { JPY: 13200 },
                  conversionRate: 0.2,
                  deliveryMode: 'email',
                },
              ],
              totalSearches: 120,
              distinctQueries: 2,
              distinctZeroResultQueries: 1,
              topQueries: [{ query: '急須', count: 30, previous: 18 }],
              zeroResultQueries: [{ query: 'teapot', count: 2, previous: 0 }],
            },
          },
        },
        400: failure('`days` is not 7, 30 or 90.', 'days must be 7, 30 or 90'),
      },
      adminErrors(),
    ),
  },
  {
    method: 'get',
    route: 'restockClick',
    operationId: 'followRestockLink',
    tag: 'Storefront',
    summary: 'The product link of a restock e-mail (counts a click, then redirects)',
    description:
      'Always answers 302 to the shop’s own product page (the shop’s home for an unknown product), never an error page. The click counts once per recipient per notice when the HMAC signature matches (constant-time) and the link is younger than 90 days; a forged, expired or repeated click redirects without counting. No third party is involved.',
    query: z.object({
      n: z.string().meta({ description: 'The notice id.' }),
      r: z.string().meta({ description: 'A keyed digest of the recipient (no address).' }),
      u: z.string().meta({ description: 'The product slug.' }),
      e: z.string().meta({ description: 'Expiry, Unix seconds.' }),
      sig: z.string().meta({ description: 'HMAC-SHA256 signature, base64url.' }),
    }),
    responses: {
      302: { description: 'To the product page (`Location`).', body: 'none' },
      405: METHOD_NOT_ALLOWED,
    },
  },
]
