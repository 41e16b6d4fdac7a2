import type { AppConfig, LineSettings } from '../config.js'
import {
  NotConfiguredError,
  InvalidInputError,
  InvalidSignatureError,
  TransitionNotAllowedError,
} from '../errors.js'
import { requireTarget } from '../forms/customerForm.js'
import { pageShopOf } from '../pages/htmlPage.js'
import { productUrl, targetTitle } from '../productCatalogue.js'
import { ROUTES } from '../routes.js'
import type { Services } from '../services.js'
import { verifyLineIdToken } from '../signing/lineIdToken.js'
import type { LineAccounts } from './lineAccounts.js'
import { lineCancelledPage, lineResultPage } from './linePages.js'
import { lineSignup } from './lineSignup.js'
import { codeChallenge, newLoginState, readLoginState, type LoginTarget } from './loginState.js'

/**
 * The LINE Login of a sign-up (OAuth 2.0 authorization code with PKCE S256, OpenID Connect):
 * GET /api/line/login sends the shopper to LINE with a signed, single-use, expiring `state`, the
 * PKCE challenge, a `nonce` and `bot_prompt=aggressive` (LINE then offers the shop's official
 * account as a friend on its consent screen); GET /api/line/callback checks the state (and spends
 * it), exchanges the code with the verifier, checks the ID token (signature, issuer, audience,
 * expiry, nonce), asks LINE whether the shopper is a friend, stores the sign-up and answers the
 * result page.
 */

/** The 503 text while LINE is not configured. */
export const LINE_NOT_CONFIGURED = 'LINE is not configured'

/** The scopes asked: `openid` (the ID token) and `profile` (the friendship status needs it). */
const SCOPES = 'profile openid'

/** The LINE settings, or 503 (logged) while any of the four variables is unset. */
export function requireLine(config: AppConfig, log: Services['log']): LineSettings {
  if (config.line) return config.line
  log.error(
    'line.misconfigured',
    new NotConfiguredError(
      'Set LINE_LOGIN_CHANNEL_ID, LINE_LOGIN_CHANNEL_SECRET, LINE_MESSAGING_CHANNEL_ACCESS_TOKEN and LINE_MESSAGING_CHANNEL_SECRET',
    ),
  )
  throw new NotConfiguredError(LINE_NOT_CONFIGURED)
}

/** Where LINE sends the shopper back: registered as the Login channel's callback URL. */
export function lineCallbackUrl(siteUrl: string): string {
  return `${siteUrl}${ROUTES.lineCallback.path}`
}

/** The product (and variant) a login is for, from the query: 400/404 as a form's would be. */
export function loginTargetOf(query: URLSearchParams): LoginTarget {
  const productSlug = query.get('productSlug')?.trim()
  if (!productSlug) throw new InvalidInputError('productSlug is required')
  const variant = query.get('variant')?.trim() || undefined
  const target = requireTarget({ productSlug, variant })
  return {
    productSlug: target.product.slug,
    ...(target.variant ? { variant: target.variant.id } : {}),
  }
}

/** The address of LINE's login page for `target`, with a new state. */
export function loginRedirectUrl(
  target: LoginTarget,
  settings: LineSettings,
  siteUrl: string,
  now: number,
): string {
  const login = newLoginState(target, settings, now)
  const url = new URL(`${settings.loginBaseUrl}/oauth2/v2.1/authorize`)
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: settings.loginChannelId,
    redirect_uri: lineCallbackUrl(siteUrl),
    state: login.state,
    scope: SCOPES,
    nonce: login.oidcNonce,
    code_challenge: codeChallenge(login.codeVerifier),
    code_challenge_method: 'S256',
    bot_prompt: 'aggressive',
  }).toString()
  return url.toString()
}

/** What the callback needs. */
export interface LineCallbackDeps {
  services: Pick<Services, 'repositories' | 'notifiers' | 'config' | 'log' | 'context' | 'now'>
  accounts: LineAccounts
}

/** GET /api/line/callback: every check, then the sign-up and its page. */
export async function answerLineCallback(
  query: URLSearchParams,
  deps: LineCallbackDeps,
): Promise<Response> {
  const { services, accounts } = deps
  const { config, log, now } = services
  const settings = requireLine(config, log)
  const shop = pageShopOf(config)
  const login = readLoginState(query.get('state'), settings, now())
  const productPage = productUrl(login.productSlug, config.storefrontUrl)
  if (query.get('error')) {
    log.info('line.login.cancelled', { error: query.get('error')?.slice(0, 40) })
    return lineCancelledPage(productPage, shop)
  }
  const code = query.get('code')
  if (!code) throw new InvalidInputError('code is required')
  const tokens = await accounts.exchangeCode({
    code,
    codeVerifier: login.codeVerifier,
    redirectUri: lineCallbackUrl(config.siteUrl),
  })
  const idToken = verifyLineIdToken({
    idToken: tokens.idToken,
    channelId: settings.loginChannelId,
    channelSecret: settings.loginChannelSecret,
    nonce: login.oidcNonce,
    now: now(),
  })
  if (!idToken.ok) {
    log.warn('line.login.id_token_refused', { reason: idToken.reason })
    throw new InvalidSignatureError('LINE login could not be verified')
  }
  // why: spent once the login is proven, so that a request repeated on the way (a proxy's or a
  // browser's retry of a refused one) meets the same refusal; a code is single use at LINE too
  if (!(await services.repositories.lineContacts.spendLoginState(login.stateNonce, now()))) {
    log.warn('line.login.replayed', {})
    throw new TransitionNotAllowedError('Login state already used')
  }
  const friend = await accounts.friendship(tokens.accessToken)
  const outcome = await lineSignup({ target: login, lineUserId: idToken.userId, friend }, services)
  const retry = new URL(`${config.siteUrl}${ROUTES.lineLogin.path}`)
  retry.searchParams.set('productSlug', login.productSlug)
  if (login.variant) retry.searchParams.set('variant', login.variant)
  return lineResultPage(
    {
      productTitle: targetTitle(login),
      created: outcome.created,
      friend,
      retryUrl: retry.toString(),
      productPageUrl: productPage,
    },
    shop,
  )
}
