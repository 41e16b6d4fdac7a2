import { z } from 'zod'
import {
  formValidationError,
  FORM_INTERNAL_ERROR_MESSAGE,
  PRODUCT_NOT_FOUND_MESSAGE,
  reservationForm,
  signupForm,
} from '../../lib/forms/customerForm.js'
import { withHoneypot } from '../../lib/forms/honeypot.js'
import { EXAMPLE_SEARCH_RESULT } from './apiExamples.js'
import {
  failure,
  jsonPostErrors,
  mergeResponses,
  METHOD_NOT_ALLOWED,
  RATE_LIMITED,
  type ApiOperation,
  type Responses,
} from './operationSpec.js'
import * as answers from './responseSchemas.js'

/** The exact 400 the form answers for `body` (run through the real validation). */
function validationExample(schema: z.ZodType, body: unknown): unknown {
  const parsed = schema.safeParse(body)
  if (parsed.success) throw new Error('validationExample: the example body is valid')
  const error = formValidationError(parsed.error)
  return { success: false, error: error.message, ...error.details }
}

function formResponses(schema: z.ZodType, invalidBody: unknown, created: Responses): Responses {
  return mergeResponses(
    {
      ...created,
      400: {
        description:
          'Invalid fields (`details`, one per field, Japanese), an unknown product, or a body that is not a JSON object.',
        body: answers.formErrorBody,
        examples: {
          validation: validationExample(schema, invalidBody),
          'unknown product': { success: false, error: PRODUCT_NOT_FOUND_MESSAGE },
        },
      },
      429: RATE_LIMITED,
    },
    jsonPostErrors(FORM_INTERNAL_ERROR_MESSAGE),
  )
}

const HONEYPOT_NOTE =
  ' A request whose `website` field (the honeypot) is not empty is answered exactly like a success, with an id that names nothing; nothing is stored or sent.'

export const PUBLIC_OPERATIONS: ApiOperation[] = [
  {
    method: 'post',
    route: 'reservation',
    operationId: 'createReservation',
    tag: 'Storefront',
    summary: 'Reserve a product',
    description:
      'Stores a pending reservation, answers its id, then notifies the reservation channel and e-mails a confirmation (their failures never change the answer). The same address may reserve again.' +
      HONEYPOT_NOTE,
    body: {
      schema: withHoneypot(reservationForm),
      view: 'input',
      example: { name: '山田 花子', email: 'hanako@example.com', productSlug: 'chasen-takayama' },
    },
    responses: formResponses(
      reservationForm,
      { name: '', email: 'not-an-email', productSlug: 'chasen-takayama' },
      {
        200: {
          description: 'Reserved.',
          body: answers.reservationCreated,
          examples: {
            success: { success: true, reservationId: 'res_3b1f0c9e-8a52-4d7e-9c41-5f2a6b7d8e90' },
          },
        },
      },
    ),
  },
  {
    method: 'post',
    route: 'notifySignup',
    operationId: 'signUpForRestock',
    tag: 'Storefront',
    summary: 'Ask for a restock e-mail',
    description:
      'One pending subscription per address and product: signing up again while one is pending answers its id (its `ntf_<ms>` shows when it was made) and sends nothing.' +
      HONEYPOT_NOTE,
    body: {
      schema: withHoneypot(signupForm),
      view: 'input',
      example: { email: 'hanako@example.com', productSlug: 'hario-v60-dripper' },
    },
    responses: formResponses(
      signupForm,
      { email: '', productSlug: 'hario-v60-dripper' },
      {
        200: {
          description: 'Signed up (or already signed up).',
          body: answers.subscriptionCreated,
          examples: { success: { success: true, subscriptionId: 'ntf_1763778300000-4f9c2a7b1e' } },
        },
      },
    ),
  },
  {
    method: 'get',
    route: 'search',
    operationId: 'search',
    tag: 'Storefront',
    summary: 'Site search',
    description:
      'Prefix and fuzzy matching, Japanese inner words found, matches in `<mark>` in the highlighted fields (everything else HTML-escaped). `Cache-Control: public, max-age=300`.',
    query: z.object({
      q: z.string().optional().meta({
        description: 'The query; trimmed, cut to 200 characters. Empty or missing: no results.',
      }),
      excerpt_length: z.int().optional().meta({
        description: 'Longest excerpt, clamped to 50–500; default 200 (also for a non-number).',
      }),
    }),
    responses: {
      200: {
        description: 'The results, most relevant first.',
        body: answers.searchAnswer,
        examples: {
          results: { results: [EXAMPLE_SEARCH_RESULT], query: '入荷', totalResults: 1 },
          'no query': { results: [], query: '', totalResults: 0 },
        },
      },
      405: METHOD_NOT_ALLOWED,
      429: RATE_LIMITED,
      500: failure('Unexpected failure.', 'Internal server error'),
    },
  },
  {
    method: 'get',
    route: 'notifyUnsubscribe',
    operationId: 'showUnsubscribePage',
    tag: 'Storefront',
    summary: 'Unsubscribe confirmation page (the link in restock e-mails)',
    description:
      'An HTML page with a button that POSTs the same token. Changes nothing (mail scanners follow links).',
    query: z.object({ token: z.string().meta({ description: 'The signed token of the link.' }) }),
    responses: unsubscribeResponses({
      200: { description: 'The confirmation page.', body: 'html' },
    }),
  },
  {
    method: 'post',
    route: 'notifyUnsubscribe',
    operationId: 'unsubscribe',
    tag: 'Storefront',
    summary: 'Unsubscribe (button or RFC 8058 one-click)',
    description:
      'Sets the subscription `unsubscribed` (repeating is harmless). The token is in the query or in an urlencoded body. Answers the done page, or JSON when `Accept` asks for JSON only (errors too).',
    query: z.object({
      token: z.string().optional().meta({ description: 'The signed token of the link.' }),
    }),
    formBody: z.object({
      token: z.string().optional(),
      'List-Unsubscribe': z.literal('One-Click').optional(),
    }),
    responses: unsubscribeResponses({
      200: {
        description:
          'Unsubscribed: the done page, or `{success: true}` for `Accept: application/json`.',
        body: answers.unsubscribedAnswer,
        alsoHtml: true,
        examples: { success: { success: true } },
      },
    }),
  },
  {
    method: 'get',
    route: 'openapi',
    operationId: 'getOpenApiDocument',
    tag: 'Service',
    summary: 'This document',
    description:
      'OpenAPI 3.1, generated at build time from the schemas the endpoints use. `Cache-Control: public, max-age=300`.',
    responses: {
      200: { description: 'The document.', body: answers.openApiAnswer },
      405: METHOD_NOT_ALLOWED,
    },
  },
]

function unsubscribeResponses(success: Responses): Responses {
  const asPage = (spec: ReturnType<typeof failure>) => ({ ...spec, alsoHtml: true })
  return {
    ...success,
    400: asPage(failure('The token is missing or garbled.', 'Invalid unsubscribe link')),
    403: asPage(
      failure('The signature does not match.', 'Unsubscribe link signature is not valid'),
    ),
    404: asPage(failure('The subscription no longer exists.', 'Subscription not found')),
    405: asPage(METHOD_NOT_ALLOWED),
    429: RATE_LIMITED,
    500: asPage(failure('Unexpected failure.', 'Internal server error')),
    503: asPage(
      failure('`UNSUBSCRIBE_SECRET` is not set.', 'Unsubscribe is not available right now'),
    ),
  }
}
