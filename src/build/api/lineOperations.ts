import { z } from 'zod'
import { LINE_NOT_CONFIGURED } from '../../lib/line/lineLogin.js'
import {
  failure,
  jsonPostErrors,
  METHOD_NOT_ALLOWED,
  RATE_LIMITED,
  type ApiOperation,
  type ResponseSpec,
} from './operationSpec.js'
import * as answers from './responseSchemas.js'

/** LINE as a second channel (README "LINE"): the login of a sign-up and LINE's webhook. */

const asPage = (spec: ResponseSpec): ResponseSpec => ({ ...spec, alsoHtml: true })

export const LINE_OPERATIONS: ApiOperation[] = [
  {
    method: 'get',
    route: 'lineLogin',
    operationId: 'startLineLogin',
    tag: 'Storefront',
    summary: 'Sign up with LINE: starts LINE Login (the 「LINEで受け取る」 button)',
    description:
      'Answers 302 to LINE’s login page: authorization code with PKCE (S256), a `state` signed by the service, single use and valid 10 minutes, an OpenID `nonce`, and `bot_prompt=aggressive` so LINE offers the shop’s official account as a friend. Errors answer as Japanese HTML pages.',
    query: z.object({
      productSlug: z.string().meta({ description: 'The product signed up for.' }),
      variant: z
        .string()
        .optional()
        .meta({ description: 'The variant’s id; required for a product with variants.' }),
    }),
    responses: {
      302: { description: 'To LINE’s login page (`Location`).', body: 'none' },
      400: asPage(
        failure(
          'No `productSlug`, an unknown product, or a missing, unexpected or unknown variant (the sign-up form’s texts).',
          'productSlug is required',
          '指定された商品が見つかりません。',
        ),
      ),
      405: asPage(METHOD_NOT_ALLOWED),
      429: RATE_LIMITED,
      503: asPage(
        failure('One of the four LINE channel variables is not set.', LINE_NOT_CONFIGURED),
      ),
    },
  },
  {
    method: 'get',
    route: 'lineCallback',
    operationId: 'finishLineLogin',
    tag: 'Storefront',
    summary: 'Where LINE sends the shopper back: stores the LINE sign-up',
    description:
      'The Login channel’s callback URL. Checks the `state` (signature, expiry, and single use: a second use answers 409), exchanges `code` with the PKCE verifier, checks the ID token (HS256 with the Login channel secret; `iss`, `aud`, `exp`, `nonce`), asks LINE whether the shopper has the official account as a friend, stores one pending subscription `channel: "line"` with the LINE user id (no e-mail) and its consent (`restock-line`, the wording shown beside the button), and answers a Japanese page saying whether the shop can message them or that they should add the account. `error` (the shopper stopped at LINE) answers a page and stores nothing.',
    query: z.object({
      state: z.string().meta({ description: 'The signed state the login was started with.' }),
      code: z.string().optional().meta({ description: 'LINE’s authorization code.' }),
      error: z.string().optional().meta({ description: 'Set by LINE when the login stopped.' }),
    }),
    responses: {
      200: { description: 'The result page.', body: 'html' },
      400: asPage(failure('No state or code.', 'Invalid login state', 'code is required')),
      403: asPage(
        failure(
          'A state not signed by the service, a code LINE refused, or an ID token that fails a check (signature, issuer, audience, expiry, nonce).',
          'Invalid login state',
          'LINE refused the login',
          'LINE login could not be verified',
        ),
      ),
      405: asPage(METHOD_NOT_ALLOWED),
      409: asPage(failure('The state was used before (a replay).', 'Login state already used')),
      410: asPage(failure('The state is older than 10 minutes.', 'Login has expired')),
      429: RATE_LIMITED,
      503: asPage(
        failure(
          'LINE is not configured, or LINE could not be reached.',
          LINE_NOT_CONFIGURED,
          'LINE could not be reached',
        ),
      ),
    },
  },
  {
    method: 'post',
    route: 'lineWebhook',
    operationId: 'receiveLineEvents',
    tag: 'Service',
    summary: 'LINE’s webhook: follow and unfollow',
    description:
      'The Messaging API channel’s webhook URL. `X-Line-Signature` (base64 HMAC-SHA256 of the raw body with `LINE_MESSAGING_CHANNEL_SECRET`) is compared in constant time before the body is parsed. `unfollow` ends every waiting LINE sign-up of that user (`unsubscribed`; never messaged again until they sign up again) and marks them unreachable; `follow` marks a user who signed up reachable. Every other event is answered 200 and ignored; users who never signed up leave nothing stored.',
    headers: z.object({
      'X-Line-Signature': z.string().meta({ description: 'Base64 HMAC-SHA256 of the raw body.' }),
    }),
    body: {
      schema: z.object({ destination: z.string(), events: z.array(z.looseObject({})) }),
      view: 'input',
      example: {
        destination: 'U0123456789abcdef0123456789abcdef',
        events: [
          {
            type: 'unfollow',
            mode: 'active',
            timestamp: 1764000000000,
            source: { type: 'user', userId: 'U4af4980629abcdef0123456789abcdef' },
            webhookEventId: '01JD3F4Z2B9Q8R7S6T5V4W3X2Y',
            deliveryContext: { isRedelivery: false },
          },
        ],
      },
    },
    responses: {
      200: {
        description: 'Accepted.',
        body: answers.lineWebhookAnswer,
        examples: { success: { success: true, received: 1, handled: 1, unsubscribed: 1 } },
      },
      ...jsonPostErrors(),
      400: failure(
        'Not JSON, or no `events` array.',
        'Invalid JSON body',
        'events must be an array',
      ),
      401: failure('`X-Line-Signature` missing or wrong.', 'Invalid signature'),
      503: failure('One of the four LINE channel variables is not set.', LINE_NOT_CONFIGURED),
    },
  },
]
