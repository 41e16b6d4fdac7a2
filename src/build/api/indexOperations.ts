import { z } from 'zod'
import { jsonPostErrors, mergeResponses, type ApiOperation } from './operationSpec.js'
import { SCHEDULED_NOTE, scheduledRequest } from './deliveryOperations.js'
import * as answers from './responseSchemas.js'

/** The upkeep of the record indexes: the background rebuild and the scheduled verifier. */
export const INDEX_OPERATIONS: ApiOperation[] = [
  {
    method: 'post',
    route: 'listingRebuild',
    operationId: 'rebuildRecordIndexes',
    tag: 'Service',
    summary: 'Rebuild missing record indexes (background function)',
    description:
      'Started by a list or stats request that found a record index missing (its answer says `rebuilding: true`), by the scheduled `listing-verify`, and by itself when its 15 minutes run out. Builds the missing indexes product by product; each finished product is kept, and one run works at a time, so it is safe at any time. Netlify answers 202 at once and runs it in the background. It admits a call only with a rebuild ticket that this deploy issued (5 minutes); the admin tokens are not tickets.',
    body: {
      schema: z.object({}),
      view: 'input',
      example: {},
    },
    responses: {
      202: { description: 'Accepted; runs in the background (empty body).', body: 'none' },
    },
  },
  {
    method: 'post',
    route: 'listingVerify',
    operationId: 'verifyRecordIndexes',
    tag: 'Service',
    summary: 'Verify the record indexes (scheduled every 10 minutes)',
    description:
      'Compares the record indexes, a slice of products per run, with the stored records, so that records changed around the service (in the Netlify UI, by a script) appear in lists; starts the background rebuild when an index is missing.' +
      SCHEDULED_NOTE,
    body: {
      schema: scheduledRequest,
      view: 'input',
      example: { next_run: '2026-11-24T03:10:00.000Z' },
    },
    responses: mergeResponses(
      {
        200: {
          description: 'What this run did.',
          body: answers.indexVerifyAnswer,
          examples: { success: { success: true, verified: 12, rebuilding: false } },
        },
      },
      jsonPostErrors(),
    ),
  },
]
