import { z } from 'zod'
import {
  fieldError,
  formValidationError,
  FORM_INTERNAL_ERROR_MESSAGE,
  PRODUCT_NOT_FOUND_MESSAGE,
  reservationForm,
  signupForm,
  VARIANT_MESSAGES,
} from '../../lib/forms/customerForm.js'
import { withHoneypot } from '../../lib/forms/honeypot.js'
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  KEY_BUSY_MESSAGE,
  KEY_INVALID_MESSAGE,
  KEY_REUSED_MESSAGE,
} from '../../lib/forms/idempotentRequest.js'
import { EXAMPLE_SEARCH_RESULT } from './apiExamples.js'
import {
  failure,
  jsonPostErrors,
  mergeResponses,
  METHOD_NOT_ALLOWED,
  RATE_LIMITED,
  type ApiOperation,
  type Responses,
  type ResponseSpec,
  signedLinkResponses,
} from './operationSpec.js'
import {
  BUSY_MESSAGE,
  LIMIT_REACHED_MESSAGE,
  OUTSIDE_WINDOW_MESSAGE,
} from '../../lib/reservations/preorderRules.js'
import * as answers from './responseSchemas.js'

/** The exact 400 the form answers for `body` (run through the real validation). */
function validationExample(schema: z.ZodType, body: unknown): unknown {
  const parsed = schema.safeParse(body)
  if (parsed.success) throw new Error('validationExample: the example body is valid')
  const error = formValidationError(parsed.error)
  return { success: false, error: error.message, ...error.details }
}

/** The 400 of a `variant` the product cannot take (checked with the product, after the fields). */
function variantExample(message: string): unknown {
  const error = fieldError('variant', message)
  return { success: false, error: error.message, ...error.details }
}

function formResponses(schema: z.ZodType, invalidBody: unknown, created: Responses): Responses {
  return mergeResponses(
    {
      ...created,
      400: {
        description:
          'Invalid fields (`details`, one per field, Japanese), an unknown product, a `variant` missing or unknown for a product with variants or sent for a product without (`details` on `variant`), or a body that is not a JSON object.',
        body: answers.formErrorBody,
        examples: {
          validation: validationExample(schema, invalidBody),
          'unknown product': { success: false, error: PRODUCT_NOT_FOUND_MESSAGE },
          'variant missing': variantExample(VARIANT_MESSAGES.required),
          'unknown variant': variantExample(VARIANT_MESSAGES.unknown),
          'product without variants': variantExample(VARIANT_MESSAGES.unexpected),
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
      'Stores a pending reservation of `quantity` units (default 1, at most the product’s `maxPerReservation`), answers its id, then notifies the reservation channel and e-mails a confirmation with a signed link to `/reservation/manage` (their failures never change the answer). The same address may reserve again: every request without an `Idempotency-Key` header is a new reservation. With the header (as Stripe and the IETF draft define it; the widgets send one per submission), the same key and the same body answer the first reservation’s id again and make nothing; the same key with another body is refused (422); a repeat that arrives while the first request runs waits for its answer (409 after 5 s). Only a reservation made is remembered (24 to 48 hours): a refused or failed request may be sent again with its key. A product with `reservationLimit` takes reservations only while units are left (409 with `remaining`), and one with a window only inside it (409 `予約受付期間外です。`, with `opensAt` before it opens). A product with variants needs `variant` (the variant’s id): its cap, window and `maxPerReservation` are the variant’s own where its front matter sets them, else the product’s, and each variant’s units are counted on their own; the record carries `variant`.' +
      HONEYPOT_NOTE,
    headers: z.object({
      [IDEMPOTENCY_KEY_HEADER]: z
        .string()
        .max(IDEMPOTENCY_KEY_MAX_LENGTH)
        .optional()
        .meta({
          description:
            'One key per submission (e.g. a UUID), sent again unchanged when the same submission is retried; printable ASCII, at most 255 characters, bare or as a quoted string.',
          examples: ['0b5a9e3c-7d1f-4c2a-9e8b-6f4d3c2b1a09'],
        }),
    }),
    body: {
      schema: withHoneypot(reservationForm),
      view: 'input',
      example: {
        name: '山田 花子',
        email: 'hanako@example.com',
        productSlug: 'chasen-takayama',
        quantity: 1,
      },
    },
    responses: mergeResponses(
      formResponses(
        reservationForm,
        { name: '', email: 'not-an-email', productSlug: 'chasen-takayama', quantity: 0 },
        {
          200: {
            description: 'Reserved.',
            body: answers.reservationCreated,
            examples: {
              success: { success: true, reservationId: 'res_3b1f0c9e-8a52-4d7e-9c41-5f2a6b7d8e90' },
            },
          },
          409: {
            description:
              'The cap is reached (`remaining` = units still free), the window is closed (`opensAt` before it opens, `closesAt` after it closed), or the first request with the same `Idempotency-Key` is still running.',
            body: z.union([answers.limitReachedBody, answers.outsideWindowBody]),
            examples: {
              'cap reached': { success: false, error: LIMIT_REACHED_MESSAGE, remaining: 1 },
              'same key still running': { success: false, error: KEY_BUSY_MESSAGE },
              'not open yet': {
                success: false,
                error: OUTSIDE_WINDOW_MESSAGE,
                opensAt: '2026-12-01T10:00:00+09:00',
              },
              closed: {
                success: false,
                error: OUTSIDE_WINDOW_MESSAGE,
                closesAt: '2026-12-25T23:59:00+09:00',
              },
            },
          },
          422: failure(
            'The `Idempotency-Key` was used before with another body: nothing was made.',
            KEY_REUSED_MESSAGE,
          ),
          503: failure(
            'A capped product’s units kept changing under every attempt (a rush beyond what its ledger absorbs); nothing was stored: try again.',
            BUSY_MESSAGE,
          ),
        },
      ),
      { 400: failure('', KEY_INVALID_MESSAGE) },
    ),
  },
  {
    method: 'get',
    route: 'productAvailability',
    operationId: 'getProductAvailability',
    tag: 'Storefront',
    summary:
      'Whether a product (each of its variants) can be reserved, and how many units are left',
    description:
      'Read only. `remaining` is null for a product without `reservationLimit`; `reservable` is false outside the window or when no unit is left. A product with variants answers `variants`, one line per variant with its own state and its `stock`; the widgets draw their variant choice from it. `lineSignup` says whether the shop takes sign-ups with LINE (`<shop-notify>` then offers 「LINEで受け取る」). `Cache-Control: public, max-age=30`.',
    pathParameters: z.object({
      slug: z.string().meta({ description: 'The product slug.', examples: ['chasen-takayama'] }),
    }),
    responses: {
      200: {
        description: 'The product’s pre-order state.',
        body: answers.availabilityAnswer,
        examples: {
          capped: {
            success: true,
            productSlug: 'kiyomizu-matcha-chawan',
            reservable: true,
            remaining: 3,
            opensAt: null,
            closesAt: null,
            releaseDate: '2027-01-20',
            lineSignup: false,
          },
          'with variants': {
            success: true,
            productSlug: 'shop-tshirt',
            reservable: true,
            remaining: 18,
            opensAt: null,
            closesAt: null,
            releaseDate: '2027-03-01',
            lineSignup: true,
            variants: [
              {
                variant: 'm',
                name: 'M',
                reservable: true,
                remaining: 18,
                opensAt: null,
                closesAt: null,
                releaseDate: '2027-03-01',
                stock: null,
              },
              {
                variant: 'xl',
                name: 'XL',
                reservable: false,
                remaining: 0,
                opensAt: null,
                closesAt: null,
                releaseDate: '2027-04-01',
                stock: 0,
              },
            ],
          },
        },
      },
      404: failure('No such product.', PRODUCT_NOT_FOUND_MESSAGE),
      405: METHOD_NOT_ALLOWED,
      429: RATE_LIMITED,
      500: failure('Unexpected failure.', 'Internal server error'),
    },
  },
  {
    method: 'get',
    route: 'reservationManage',
    operationId: 'showReservationPage',
    tag: 'Storefront',
    summary: 'The reservation page (the signed link in reservation e-mails)',
    description:
      'An HTML page (Japanese, `Cache-Control: no-store`, a strict CSP) showing the reservation; when it is `pending` or `confirmed`, a button POSTs the same token to cancel it. Changes nothing.',
    query: z.object({ token: z.string().meta({ description: 'The signed token of the link.' }) }),
    responses: manageResponses({ 200: { description: 'The page.', body: 'html' } }),
  },
  {
    method: 'post',
    route: 'reservationManage',
    operationId: 'cancelReservationOnline',
    tag: 'Storefront',
    summary: 'Cancel a reservation from its page',
    description:
      'Cancels a `pending` or `confirmed` reservation (its units are freed and the reservation channel is told); a link that already cancelled never acts again. The token is in the query or in an urlencoded body.',
    query: z.object({
      token: z.string().optional().meta({ description: 'The signed token of the link.' }),
    }),
    formBody: z.object({ token: z.string().optional() }),
    responses: manageResponses({
      200: { description: 'Cancelled (or it already was): the done page.', body: 'html' },
      409: {
        description:
          'It can no longer be cancelled online (fulfilled), or this link was already used and staff restored the reservation.',
        body: 'html',
      },
    }),
  },
  {
    method: 'post',
    route: 'notifySignup',
    operationId: 'signUpForRestock',
    tag: 'Storefront',
    summary: 'Ask for a restock e-mail',
    description:
      'One pending subscription per address and product (and variant: a product with variants needs `variant`, and the subscription waits for that variant alone): signing up again while one is pending answers its id (its `ntf_<ms>` shows when it was made) and sends nothing. So a retry needs no `Idempotency-Key`; the header (the widgets send one) is accepted and changes nothing.' +
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
          description:
            'Signed up (or already signed up), with its place in the queue (`queue`) while it is waiting. With double opt-in on, `confirmationRequired: true` while the sign-up waits for its confirmation: the shopper must open the e-mailed link (one e-mail a minute per address at most; its link confirms every sign-up of the address that waits), and it has no place until then.',
          body: answers.subscriptionCreated,
          examples: {
            success: {
              success: true,
              subscriptionId: 'ntf_1763778300000-4f9c2a7b1e',
              queue: { place: 12, waiting: 40 },
            },
            'double opt-in': {
              success: true,
              subscriptionId: 'ntf_1763778300000-4f9c2a7b1e',
              confirmationRequired: true,
            },
          },
        },
      },
    ),
  },
  {
    method: 'get',
    route: 'searchSuggest',
    operationId: 'suggestSearch',
    tag: 'Storefront',
    summary: 'Search completions',
    description:
      'Up to 8 page titles and tags starting with what was typed (also at a title’s later words), compared as the search compares words (katakana = hiragana, width, case, long vowel; spaces and hyphens ignored). `Cache-Control: public, max-age=300`.',
    query: z.object({
      q: z.string().optional().meta({
        description: 'What the shopper typed so far; trimmed, cut to 200 characters. Empty: none.',
      }),
    }),
    responses: {
      200: {
        description: 'The completions, best first.',
        body: answers.suggestAnswer,
        examples: {
          completions: {
            query: '抹',
            suggestions: [
              { text: '抹茶', kind: 'tag', slug: null },
              {
                text: '京焼 Kiyomizu 抹茶碗 若草',
                kind: 'title',
                slug: '/products/kiyomizu-matcha-chawan',
              },
            ],
          },
          'no query': { query: '', suggestions: [] },
        },
      },
      405: METHOD_NOT_ALLOWED,
      429: RATE_LIMITED,
      500: failure('Unexpected failure.', 'Internal server error'),
    },
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
      typing: z.literal('1').optional().meta({
        description:
          'The storefront widget’s mark of a request made as the shopper types: answered alike, not written to the keyword log. Without it every search is logged (§2.6); the widget asks a query once more without it when the shopper settles on it.',
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
    route: 'notifyStatus',
    operationId: 'showQueueStatusPage',
    tag: 'Storefront',
    summary: 'The 「入荷待ちの状況」 page (the signed link of the sign-up e-mail)',
    description:
      'An HTML page (Japanese, `Cache-Control: no-store`, a strict CSP) of the one sign-up the link names: the product (and variant), when it was signed up (JST), its place in the queue 「12 番目（入荷待ち 40 人）」 counted as the restock waves choose (the waiting subscribers of the product, or of the variant, oldest sign-up first), or why it has none (notified, unsubscribed, expired, not confirmed); while pending, the unsubscribe button (it POSTs to `/api/notify-unsubscribe`). The link is made by the sign-up e-mail (or the page after a double opt-in confirmation) and works for a year. Changes nothing.',
    query: z.object({ token: z.string().meta({ description: 'The signed token of the link.' }) }),
    responses: {
      200: { description: 'The page.', body: 'html' },
      400: { description: 'The token is missing or garbled.', body: 'html' },
      403: { description: 'The signature does not match (forged, altered).', body: 'html' },
      404: { description: 'The sign-up no longer exists.', body: 'html' },
      405: { description: 'Wrong method.', body: 'html' },
      410: { description: 'The link is over a year old.', body: 'html' },
      429: RATE_LIMITED,
      500: { description: 'Unexpected failure.', body: 'html' },
      503: { description: '`UNSUBSCRIBE_SECRET` is not set.', body: 'html' },
    },
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

function manageResponses(success: Responses): Responses {
  const page = (description: string): ResponseSpec => ({ description, body: 'html' })
  return {
    ...success,
    400: page('The token is missing or garbled.'),
    403: page('The signature does not match (tampered, another site’s) or the link expired.'),
    404: page('The reservation no longer exists.'),
    405: page('Wrong method.'),
    429: RATE_LIMITED,
    500: page('Unexpected failure.'),
    503: page('`RESERVATION_LINK_SECRET` is not set.'),
  }
}

function unsubscribeResponses(success: Responses): Responses {
  return signedLinkResponses(success, {
    invalid: 'Invalid unsubscribe link',
    forged: 'Unsubscribe link signature is not valid',
    unavailable: 'Unsubscribe is not available right now',
  })
}
