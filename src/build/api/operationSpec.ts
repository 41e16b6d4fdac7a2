import type { z } from 'zod'
import { INTERNAL_ERROR_MESSAGE } from '../../lib/errors.js'
import type { RouteName } from '../../lib/routes.js'
import { errorBody } from './responseSchemas.js'

/** One documented operation: the source of its OpenAPI entry and of its docs/api.md section. */
export interface ApiOperation {
  method: 'get' | 'post'
  /** Its route in src/lib/routes.ts: the path and the token group (§5, D7) come from there. */
  route: RouteName
  operationId: string
  tag: 'Storefront' | 'Admin' | 'Archive' | 'Service'
  summary: string
  description: string
  /** Query parameters, as one zod object (each property one parameter). */
  query?: z.ZodObject
  /** Path parameters (`{name}` in `path`), as one zod object; all required. */
  pathParameters?: z.ZodObject
  /** Request headers the endpoint reads (beyond `Authorization`), as one zod object. */
  headers?: z.ZodObject
  /** JSON request body; `view` picks which side of a transforming schema is shown. */
  body?: { schema: z.ZodType; view: 'input' | 'output'; example: unknown }
  /** Another content type the body may have (notify-unsubscribe's form post). */
  formBody?: z.ZodObject
  responses: Responses
}

/** How an answer of one status is documented. */
export interface ResponseSpec {
  description: string
  /**
   * JSON body schema; `html` for a page; `csv` for a CSV file (an export's download); `none` for
   * no body of ours (e.g. Netlify's 429).
   */
  body: z.ZodType | 'html' | 'csv' | 'none'
  /** Also answered as an HTML page (notify-unsubscribe errors). */
  alsoHtml?: boolean
  /** Named example bodies. */
  examples?: Record<string, unknown>
}

export type Responses = Record<number, ResponseSpec>

/** A failure `{success: false, error}` with each exact text as a named example. */
export function failure(description: string, ...texts: string[]): ResponseSpec {
  return {
    description,
    body: errorBody,
    examples: Object.fromEntries(texts.map((text) => [text, { success: false, error: text }])),
  }
}

/** `extra` merged into `responses`: examples of one status are joined, descriptions kept. */
export function mergeResponses(responses: Responses, extra: Responses): Responses {
  const merged: Responses = { ...responses }
  for (const [status, spec] of Object.entries(extra)) {
    const own = merged[Number(status)]
    merged[Number(status)] = own
      ? {
          ...own,
          description: own.description,
          examples: { ...own.examples, ...spec.examples },
        }
      : spec
  }
  return merged
}

export const METHOD_NOT_ALLOWED = failure(
  'Wrong method; `Allow` lists the methods.',
  'Method not allowed',
)
export const TOO_LARGE = failure('Body over 100 KB (102,400 bytes).', 'Request body too large')
export const RATE_LIMITED: ResponseSpec = {
  description:
    "Too many requests from this IP address in the last 60 s; answered by Netlify's rate limiting, before the function runs (README, Abuse protection).",
  body: 'none',
}

/** The wrapper's answers every JSON POST endpoint may give (D8). */
export function jsonPostErrors(internalText = INTERNAL_ERROR_MESSAGE): Responses {
  return {
    400: failure(
      'Body is not a JSON object.',
      'Invalid JSON body',
      'Request body must be a JSON object',
    ),
    405: METHOD_NOT_ALLOWED,
    413: TOO_LARGE,
    500: failure('Unexpected failure (logged with the request id; no detail here).', internalText),
  }
}

/** What every admin endpoint adds: the token check (§5, D7). */
export function adminErrors(): Responses {
  return {
    ...jsonPostErrors(),
    401: failure(
      'Missing or wrong Bearer token (checked before the body is read).',
      'Unauthorized',
    ),
  }
}

/** The error texts of a signed-link page (unsubscribe, double opt-in confirmation). */
export interface SignedLinkTexts {
  /** 400: the token is missing or garbled. */
  invalid: string
  /** 403: the signature does not match. */
  forged: string
  /** 503: `UNSUBSCRIBE_SECRET` is not set. */
  unavailable: string
}

/** The answers of a signed-link page: each error also as a Japanese HTML page. */
export function signedLinkResponses(
  success: Responses,
  texts: SignedLinkTexts,
  extra: Responses = {},
): Responses {
  const asPage = (spec: ResponseSpec) => ({ ...spec, alsoHtml: true })
  return {
    ...success,
    400: asPage(failure('The token is missing or garbled.', texts.invalid)),
    403: asPage(failure('The signature does not match.', texts.forged)),
    404: asPage(failure('The subscription no longer exists.', 'Subscription not found')),
    405: asPage(METHOD_NOT_ALLOWED),
    ...Object.fromEntries(Object.entries(extra).map(([status, spec]) => [status, asPage(spec)])),
    429: RATE_LIMITED,
    500: asPage(failure('Unexpected failure.', 'Internal server error')),
    503: asPage(failure('`UNSUBSCRIBE_SECRET` is not set.', texts.unavailable)),
  }
}
