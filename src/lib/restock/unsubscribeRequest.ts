import type { Context } from '@netlify/functions'
import { loadConfig } from '../config.js'
import { INTERNAL_ERROR_MESSAGE } from '../http/endpoint.js'
import { HttpError } from '../http/errors.js'
import { readBodyText } from '../http/requestBody.js'
import { jsonResponse } from '../http/response.js'
import { createLogger, type Logger } from '../log.js'
import { findProduct } from '../productCatalogue.js'
import { openRepositories } from '../storage/repositories.js'
import { confirmPage, donePage, errorPage } from './unsubscribePages.js'
import { MissingUnsubscribeSecretError, verifyUnsubscribeToken } from './unsubscribeToken.js'

const ALLOW = 'GET, POST'

/** Whether the caller asked for JSON rather than a page (scripts, the admin UI). */
function wantsJson(req: Request): boolean {
  const accept = req.headers.get('accept') ?? ''
  return accept.includes('application/json') && !accept.includes('text/html')
}

/** The token from the query, else (POST) from an urlencoded form body. */
async function tokenOf(req: Request): Promise<string | null> {
  const fromQuery = new URL(req.url).searchParams.get('token')
  if (fromQuery || req.method !== 'POST') return fromQuery
  const type = req.headers.get('content-type') ?? ''
  if (!type.includes('application/x-www-form-urlencoded')) return null
  return new URLSearchParams(await readBodyText(req)).get('token')
}

async function answer(req: Request, context: Context, log: Logger): Promise<Response> {
  if (req.method !== 'GET' && req.method !== 'POST') {
    throw new HttpError(405, 'Method not allowed', {}, { Allow: ALLOW })
  }
  const secret = loadConfig().unsubscribeSecret
  if (!secret) {
    log.error('unsubscribe.misconfigured', new MissingUnsubscribeSecretError())
    throw new HttpError(503, 'Unsubscribe is not available right now')
  }
  const token = await tokenOf(req)
  const check = verifyUnsubscribeToken(token, secret)
  if (!check.ok) {
    log.warn('unsubscribe.rejected', { reason: token ? check.reason : 'missing token' })
    if (check.reason === 'bad-signature') {
      throw new HttpError(403, 'Unsubscribe link signature is not valid')
    }
    throw new HttpError(400, 'Invalid unsubscribe link')
  }
  const { subscriptions } = openRepositories(context)
  const subscription = await subscriptions.get(check.ref)
  if (!subscription) throw new HttpError(404, 'Subscription not found')
  const productTitle = findProduct(subscription.productSlug)?.title ?? subscription.productSlug
  const already = subscription.status === 'unsubscribed'
  if (req.method === 'GET') {
    return already ? donePage(productTitle, true) : confirmPage(productTitle, token ?? '')
  }
  if (!already) {
    const updated = await subscriptions.update(check.ref, (current) =>
      current.status === 'unsubscribed' ? current : { ...current, status: 'unsubscribed' },
    )
    if (!updated) throw new HttpError(404, 'Subscription not found')
    log.info('unsubscribe.done', {
      subscriptionId: subscription.id,
      productSlug: subscription.productSlug,
    })
  }
  return wantsJson(req) ? jsonResponse({ success: true }) : donePage(productTitle, already)
}

/** An expected failure as a page (or JSON); anything else is a logged 500 without detail (D8). */
function failureResponse(req: Request, error: unknown, log: Logger): Response {
  if (!(error instanceof HttpError)) {
    log.error('request.failed', error, { method: req.method, path: '/api/notify-unsubscribe' })
    return wantsJson(req)
      ? jsonResponse({ success: false, error: INTERNAL_ERROR_MESSAGE }, { status: 500 })
      : errorPage(500)
  }
  if (wantsJson(req)) return error.toResponse()
  const response = errorPage(error.status)
  for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value)
  return response
}

/**
 * GET/POST /api/notify-unsubscribe (D9). GET shows a confirmation page and changes nothing
 * (mail scanners follow links); POST — the page's button or a mail client's RFC 8058 one-click
 * `List-Unsubscribe=One-Click` — sets the subscription `unsubscribed`. Answers HTML pages, or
 * JSON when the caller accepts only JSON. Not a defineEndpoint: form bodies and HTML answers.
 */
export async function handleUnsubscribe(req: Request, context: Context): Promise<Response> {
  const log = createLogger(context?.requestId || crypto.randomUUID())
  let response: Response
  try {
    response = await answer(req, context, log)
  } catch (error) {
    response = failureResponse(req, error, log)
  }
  response.headers.set('X-Request-Id', log.requestId)
  return response
}
