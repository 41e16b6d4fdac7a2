import { z } from 'zod'
import {
  EMAIL_INVALID,
  EMAIL_REQUIRED,
  LINE_USER_ID_INVALID,
} from '../../lib/compliance/personRequest.js'
import { SCHEDULED_NOTE, scheduledRequest } from './deliveryOperations.js'
import {
  adminErrors,
  failure,
  jsonPostErrors,
  mergeResponses,
  METHOD_NOT_ALLOWED,
  type ApiOperation,
  type Responses,
  signedLinkResponses,
} from './operationSpec.js'
import * as answers from './responseSchemas.js'

/** Consent, opt-out and personal-data operations (docs/compliance.md). */

const EMAIL = 'hanako@example.jp'
const HASH = 'a3f1c2d4e5b6a7980f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a6978'
const personRequest = z.object({
  email: z.string().min(1).max(254).optional().meta({ description: 'The address asked about.' }),
  lineUserId: z.string().optional().meta({
    description:
      'Instead of `email`: the LINE user id of a shopper who signed up with LINE (`U` and 32 hex digits).',
  }),
})

function admin(responses: Responses): Responses {
  return mergeResponses(responses, adminErrors())
}

const invalidEmail: Responses = {
  400: failure(
    'No or no valid address (or LINE user id).',
    EMAIL_REQUIRED,
    EMAIL_INVALID,
    LINE_USER_ID_INVALID,
  ),
}

function confirmResponses(success: Responses): Responses {
  return signedLinkResponses(
    success,
    {
      invalid: 'Invalid confirmation link',
      forged: 'Confirmation link signature is not valid',
      unavailable: 'Confirmation is not available right now',
    },
    { 410: failure('More than 7 days old.', 'Confirmation link has expired') },
  )
}

function keepResponses(success: Responses): Responses {
  return signedLinkResponses(
    success,
    {
      invalid: 'Invalid keep link',
      forged: 'Keep link signature is not valid',
      unavailable: 'Keep link is not available right now',
    },
    {
      410: failure(
        'The 14 days to answer are over, or the sign-up has ended (or was asked again since).',
        'Keep link has expired',
        'Subscription has ended',
      ),
    },
  )
}

export const COMPLIANCE_OPERATIONS: ApiOperation[] = [
  {
    method: 'get',
    route: 'notifyConfirm',
    operationId: 'showConfirmationPage',
    tag: 'Storefront',
    summary: 'Double opt-in confirmation page (the link in the confirmation e-mail)',
    description:
      'Only with `NOTIFY_DOUBLE_OPT_IN=true`. An HTML page listing every sign-up of the link’s address that waits for confirmation (the link’s own first), each with a ticked checkbox, and a button that POSTs the same token with the ticked ones. Changes nothing (mail scanners follow links).',
    query: z.object({ token: z.string().meta({ description: 'The signed token of the link.' }) }),
    responses: confirmResponses({ 200: { description: 'The confirmation page.', body: 'html' } }),
  },
  {
    method: 'post',
    route: 'notifyConfirm',
    operationId: 'confirmSignup',
    tag: 'Storefront',
    summary: 'Confirm a restock sign-up (double opt-in)',
    description:
      'Sets `confirmedAt` once on the ticked sign-ups of the page (`choices=1` and `signup-<n>=<productSlug>/<id>`), or, without `choices`, on every sign-up of the link’s address that waits for confirmation; a repeat changes nothing. The token is in the query or in an urlencoded body. Answers the done page, or JSON when `Accept` asks for JSON only (`alreadyConfirmed`: the link’s own sign-up was confirmed before).',
    query: z.object({
      token: z.string().optional().meta({ description: 'The signed token of the link.' }),
    }),
    formBody: z.looseObject({
      token: z.string().optional(),
      choices: z.literal('1').optional().meta({ description: 'The page showed its checkboxes.' }),
    }),
    responses: confirmResponses({
      200: {
        description: 'Confirmed: the done page, or JSON for `Accept: application/json`.',
        body: answers.confirmedAnswer,
        alsoHtml: true,
        examples: { success: { success: true, alreadyConfirmed: false } },
      },
    }),
  },
  {
    method: 'get',
    route: 'notifyKeep',
    operationId: 'showKeepPage',
    tag: 'Storefront',
    summary: 'Keep page (the link in the 「引き続き入荷のお知らせを希望されますか」 e-mail)',
    description:
      'An HTML page asking whether the shopper still wants the restock e-mail, with one button that POSTs the same token; a link already used says the sign-up was kept. Changes nothing (mail scanners follow links).',
    query: z.object({ token: z.string().meta({ description: 'The signed token of the link.' }) }),
    responses: keepResponses({ 200: { description: 'The keep page.', body: 'html' } }),
  },
  {
    method: 'post',
    route: 'notifyKeep',
    operationId: 'keepSignup',
    tag: 'Storefront',
    summary: 'Keep a long-waiting restock sign-up',
    description:
      'Sets `keptAt` on the sign-up the link names, once, while its question is open (within 14 days of the e-mail): it waits on and is asked again only after another `SIGNUP_EXPIRY_DAYS`. A link used again changes nothing (`alreadyKept: true`). The token is in the query or in an urlencoded body. Answers the done page, or JSON when `Accept` asks for JSON only.',
    query: z.object({
      token: z.string().optional().meta({ description: 'The signed token of the link.' }),
    }),
    formBody: z.object({ token: z.string().optional() }),
    responses: keepResponses({
      200: {
        description: 'Kept: the done page, or JSON for `Accept: application/json`.',
        body: answers.keptAnswer,
        alsoHtml: true,
        examples: { success: { success: true, alreadyKept: false } },
      },
    }),
  },
  {
    method: 'post',
    route: 'resendWebhook',
    operationId: 'receiveResendEvent',
    tag: 'Service',
    summary: "Resend's delivery events (bounces, complaints)",
    description:
      'Signed by Svix (`svix-id`, `svix-timestamp`, `svix-signature`, secret `RESEND_WEBHOOK_SECRET`); checked with the official verifier. A hard bounce or a complaint puts the address on the suppression list and ends its pending subscriptions. A message id seen before is answered `duplicate` and not handled again.',
    body: {
      schema: z.object({ type: z.string(), created_at: z.string(), data: z.object({}) }),
      view: 'input',
      example: {
        type: 'email.bounced',
        created_at: '2026-11-22T03:00:00.000Z',
        data: { to: [EMAIL], bounce: { type: 'Permanent' } },
      },
    },
    responses: {
      200: {
        description: 'Accepted.',
        body: answers.webhookAnswer,
        examples: {
          success: { success: true, handled: 'suppressed', reason: 'bounce', unsubscribed: 1 },
        },
      },
      401: failure(
        'Signature missing, wrong, or more than 5 minutes from now.',
        'Invalid webhook signature',
      ),
      405: METHOD_NOT_ALLOWED,
      413: jsonPostErrors()[413],
      500: jsonPostErrors()[500],
      503: failure('`RESEND_WEBHOOK_SECRET` is not set.', 'Webhook is not configured'),
    },
  },
  {
    method: 'post',
    route: 'adminPeopleExport',
    operationId: 'exportPerson',
    tag: 'Admin',
    summary: 'Everything stored about an e-mail address (APPI Art. 33)',
    description:
      'Reservations, subscriptions (archived too), consent records with their wording, restock e-mails sent, orders counted for a restock notice, and whether the address is suppressed. Logged with the request id, without the address.',
    body: { schema: personRequest, view: 'input', example: { email: EMAIL } },
    responses: admin({
      200: {
        description: 'The stored data.',
        body: answers.personExport,
        examples: {
          success: {
            success: true,
            email: EMAIL,
            reservations: [],
            subscriptions: [],
            consents: [],
            notices: [],
            orders: [],
            suppressed: false,
          },
        },
      },
      ...invalidEmail,
    }),
  },
  {
    method: 'post',
    route: 'adminPeopleErase',
    operationId: 'erasePerson',
    tag: 'Admin',
    summary: 'Erase an e-mail address everywhere (APPI Art. 35)',
    description:
      'Removes its reservations, subscriptions, claims, consent records, its entries in notification histories (replaced by a count) and delivery snapshots, the links of its orders counted for restock notices (the counts stay, naming nobody), and every listing snapshot. A suppression stays as the hash only. Cannot be undone.',
    body: { schema: personRequest, view: 'input', example: { email: EMAIL } },
    responses: admin({
      200: {
        description: 'What was removed.',
        body: answers.personErased,
        examples: {
          success: {
            success: true,
            erased: {
              reservations: 1,
              subscriptions: 1,
              consents: 2,
              notices: 1,
              claims: 2,
              deliveries: 1,
              orders: 1,
              suppressionKept: false,
            },
          },
        },
      },
      ...invalidEmail,
    }),
  },
  {
    method: 'post',
    route: 'adminSuppressionsList',
    operationId: 'listSuppressions',
    tag: 'Admin',
    summary: 'Addresses no e-mail goes to (bounces, complaints)',
    description: 'Most recent first.',
    body: { schema: z.object({}), view: 'input', example: {} },
    responses: admin({
      200: {
        description: 'The list.',
        body: answers.suppressionList,
        examples: {
          success: {
            success: true,
            suppressions: [
              {
                emailHash: HASH,
                email: EMAIL,
                reason: 'bounce',
                suppressedAt: '2026-11-22T03:00:00.000Z',
              },
            ],
          },
        },
      },
    }),
  },
  {
    method: 'post',
    route: 'adminSuppressionsLift',
    operationId: 'liftSuppression',
    tag: 'Admin',
    summary: 'Lift one suppression',
    description: 'The address may be e-mailed again; subscriptions it ended stay ended.',
    body: {
      schema: z.object({ emailHash: z.string() }),
      view: 'input',
      example: { emailHash: HASH },
    },
    responses: admin({
      200: {
        description: 'Lifted.',
        body: answers.suppressionLifted,
        examples: { success: { success: true } },
      },
      400: failure(
        'Not a hash.',
        'emailHash is required',
        'emailHash must be 64 hexadecimal digits',
      ),
      404: failure('Not on the list.', 'Suppression not found'),
    }),
  },
  {
    method: 'post',
    route: 'retentionPurge',
    operationId: 'purgeExpiredData',
    tag: 'Service',
    summary: 'Retention purge (scheduled daily)',
    description:
      'Deletes consent records a month after the last e-mail sent on them, subscriptions notified or unsubscribed more than `RETENTION_DAYS` ago, unconfirmed double opt-in sign-ups after 7 days, and stock webhook replay marks 30 days after their event arrived (docs/compliance.md).' +
      SCHEDULED_NOTE,
    body: {
      schema: scheduledRequest,
      view: 'input',
      example: { next_run: '2026-11-24T00:00:00.000Z' },
    },
    responses: mergeResponses(
      {
        200: {
          description: 'What this run deleted.',
          body: answers.purgeAnswer,
          examples: {
            success: {
              success: true,
              deleted: {
                subscriptions: 3,
                unconfirmed: 1,
                consents: 4,
                stockEvents: 12,
                orderEvents: 5,
                exports: 2,
                idempotencyKeys: 3,
                lineLoginStates: 2,
                legacyListing: 0,
              },
            },
          },
        },
      },
      jsonPostErrors(),
    ),
  },
  {
    method: 'post',
    route: 'signupExpiry',
    operationId: 'expireLongWaitingSignups',
    tag: 'Service',
    summary: 'Long-waiting sign-ups (scheduled daily)',
    description:
      'E-mails every waiting sign-up that has waited `SIGNUP_EXPIRY_DAYS` (default 180; 0: never) since it was made, consented to again or kept 「引き続き入荷のお知らせを希望されますか」 with a signed keep link (`/api/notify-keep`), once; ends every sign-up whose question went unanswered for 14 days (`unsubscribed`, `unsubscribeReason: "expired"`, never e-mailed again, purged after `RETENTION_DAYS`). Inside the quiet hours, or without an e-mail provider, it asks nobody. Running it again changes nothing.' +
      SCHEDULED_NOTE,
    body: {
      schema: scheduledRequest,
      view: 'input',
      example: { next_run: '2026-11-24T00:00:00.000Z' },
    },
    responses: mergeResponses(
      {
        200: {
          description: 'What this run did.',
          body: answers.signupExpiryAnswer,
          examples: { success: { success: true, asked: 4, expired: 1, deferred: 0 } },
        },
      },
      jsonPostErrors(),
    ),
  },
]
