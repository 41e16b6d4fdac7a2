import type { Context } from '@netlify/functions'
import type { z } from 'zod'
import type { Actor } from '../audit/auditTrail.js'
import type { TokenGroup } from '../routes.js'
import { bearerToken, requireAnyToken, requireToken } from './auth.js'
import { loadConfig, type AppConfig } from '../config.js'
import {
  AlreadyInProgressError,
  CONFLICT_MESSAGE,
  ConcurrentChangeError,
  DomainError,
  INTERNAL_ERROR_MESSAGE,
  InvalidInputError,
  InvalidSignatureError,
  KeyReusedError,
  NotAvailableError,
  LinkExpiredError,
  NotConfiguredError,
  NotFoundError,
  TransitionNotAllowedError,
  TryAgainLaterError,
  UnauthorizedError,
} from '../errors.js'
import { createLogger, type Logger } from '../log.js'
import { corsHeaders, preflightResponse, type CorsPolicy } from './cors.js'
import { HttpError } from './errors.js'
import { parseJsonObject, readBodyText } from './requestBody.js'
import { jsonResponse } from './response.js'

type Method = 'GET' | 'POST'

/** What a handler receives once the wrapper has checked everything it checks. */
export interface EndpointInput<Body> {
  req: Request
  context: Context
  body: Body
  config: AppConfig
  log: Logger
  /** Who sent it (the token's name, STAFF_TOKENS); null on public endpoints. */
  actor: Actor | null
  /** Every token group the sender's token belongs to (§5, D7); null unless `auth` is `staff`. */
  groups: TokenGroup[] | null
}

/**
 * Checks the request's bearer credential (null when there is none) before anything else is read;
 * throws (e.g. UnauthorizedError) to refuse. For callers that prove themselves otherwise than
 * with a token group (the restock delivery ticket).
 */
export type RequestGuard = (bearer: string | null, config: AppConfig, log: Logger) => void

/**
 * What a handler answers: a Response as it is, or the fields of a success, which the wrapper
 * answers as JSON `{success: true, ...fields}` (§7).
 */
export type HandlerAnswer = Response | object

/**
 * What a `verifyBody` check is given: the request, its body exactly as received, the
 * configuration and the request's logger.
 */
export interface VerifyBodyInput {
  req: Request
  rawBody: string
  config: AppConfig
  log: Logger
}

export interface EndpointOptions<Schema extends z.ZodType> {
  /** Methods the endpoint answers; anything else gets 405 with `Allow` (D8). OPTIONS is always answered. */
  methods: readonly Method[]
  /**
   * Token group (§5, D7), `staff` for a token of either group, `none` for public endpoints, or a
   * guard of its own.
   */
  auth: TokenGroup | 'staff' | 'none' | RequestGuard
  /** CORS policy (D8). Default: `admin` for token groups, `public` otherwise. */
  cors?: CorsPolicy
  /** Schema of the body (POST). Omit for GET endpoints. */
  body?: Schema
  /**
   * How a POST body is read: `json` (D8) or `form` (the fields of an
   * `application/x-www-form-urlencoded` body; a body of any other type has no fields) or `text`
   * (the body exactly as sent, for signature checks). Default: `json`.
   */
  bodyKind?: 'json' | 'form' | 'text'
  /**
   * The answer to a failure for this endpoint's callers (e.g. an HTML page), or null for the JSON
   * shape; `headers` (such as `Allow`) are added to it. Default: always JSON.
   */
  errorPage?: (req: Request, status: number, config: AppConfig | null) => Response | null
  /**
   * Checks the body exactly as received, before it is parsed (a signed webhook's signature); it
   * throws the answer to a refused request. Default: none.
   */
  verifyBody?: (input: VerifyBodyInput) => void
  /** Turns a failed validation into the endpoint's documented 400. Default: the first issue's message. */
  invalid?: (error: z.ZodError) => Error
  /** Text of the 500 answer (D8: the public forms answer in Japanese). Default: `Internal server error`. */
  internalErrorMessage?: string
  handle: (input: EndpointInput<z.output<Schema>>) => Promise<HandlerAnswer>
}

/**
 * The one map from a domain error to its answer (hono's error-handler way): the first row whose
 * class the error is an instance of gives the status; the text is the error's message.
 */
const DOMAIN_STATUS: readonly [abstract new (...args: never[]) => DomainError, number][] = [
  [InvalidInputError, 400],
  [UnauthorizedError, 401],
  [InvalidSignatureError, 403],
  [NotFoundError, 404],
  [TransitionNotAllowedError, 409],
  [NotAvailableError, 409],
  [LinkExpiredError, 410],
  [KeyReusedError, 422],
  [AlreadyInProgressError, 409],
  [NotConfiguredError, 503],
  [TryAgainLaterError, 503],
]

function firstIssue(error: z.ZodError): Error {
  return new InvalidInputError(error.issues[0]?.message ?? 'Invalid request body')
}

/** The answer an error is given: an HttpError as it is, a domain error by DOMAIN_STATUS, else null. */
function knownFailure(error: unknown, log: Logger): HttpError | null {
  if (error instanceof HttpError) return error
  if (error instanceof ConcurrentChangeError) {
    log.warn('request.conflict', { key: error.key })
    return new HttpError(409, CONFLICT_MESSAGE)
  }
  if (error instanceof DomainError) {
    const row = DOMAIN_STATUS.find(([type]) => error instanceof type)
    if (row) return new HttpError(row[1], error.message, error.details)
  }
  return null
}

function requestIdOf(req: Request, context: Context | undefined): string {
  return context?.requestId || req.headers.get('x-nf-request-id') || crypto.randomUUID()
}

/**
 * The one request wrapper every endpoint uses: method, preflight, authentication (before anything
 * else, §5), body size, JSON, validation, then the handler; HttpErrors and domain errors
 * (DOMAIN_STATUS) answer as `{success: false, error, ...details}`, everything else is a logged 500
 * without detail (D8).
 */
export function defineEndpoint<Schema extends z.ZodType>(options: EndpointOptions<Schema>) {
  const allow = [...options.methods, 'OPTIONS'].join(', ')
  const cors = options.cors ?? (options.auth === 'none' ? 'public' : 'admin')
  const auth = options.auth
  const invalid = options.invalid ?? firstIssue
  const internalErrorMessage = options.internalErrorMessage ?? INTERNAL_ERROR_MESSAGE
  if (options.methods.includes('POST') && !options.body) {
    throw new Error('defineEndpoint: a POST endpoint needs a body schema')
  }

  return async (req: Request, context: Context): Promise<Response> => {
    const log = createLogger(requestIdOf(req, context))
    let config: AppConfig | null = null
    let response: Response
    try {
      // why: links in messages use this deploy's own address (docs/architecture.md)
      config = loadConfig(undefined, {
        context: context?.deploy?.context,
        origin: new URL(req.url).origin,
      })
      response = await answer(req, context, config, log)
    } catch (error) {
      response = failureResponse(req, expectedFailure(error, req, log), config)
    }
    if (config) {
      for (const [name, value] of Object.entries(corsHeaders(req, cors, config))) {
        response.headers.set(name, value)
      }
    }
    response.headers.set('X-Request-Id', log.requestId)
    return response
  }

  /** The HttpError an error answers as; an unexpected one is logged with its stack (D8). */
  function expectedFailure(error: unknown, req: Request, log: Logger): HttpError {
    const known = knownFailure(error, log)
    if (known) return known
    log.error('request.failed', error, { method: req.method, path: new URL(req.url).pathname })
    return new HttpError(500, internalErrorMessage)
  }

  function failureResponse(req: Request, failure: HttpError, config: AppConfig | null): Response {
    const page = options.errorPage?.(req, failure.status, config)
    if (!page) return failure.toResponse()
    for (const [name, value] of Object.entries(failure.headers)) page.headers.set(name, value)
    return page
  }

  async function answer(
    req: Request,
    context: Context,
    config: AppConfig,
    log: Logger,
  ): Promise<Response> {
    if (req.method === 'OPTIONS') return preflightResponse(req, cors, config, allow)
    if (!options.methods.includes(req.method as Method)) {
      throw new HttpError(405, 'Method not allowed', {}, { Allow: allow })
    }
    let actor: Actor | null = null
    let groups: TokenGroup[] | null = null
    if (typeof auth === 'function') auth(bearerToken(req), config, log)
    else if (auth === 'staff') ({ actor, groups } = requireAnyToken(req, config, log))
    else if (auth !== 'none') actor = requireToken(req, auth, config, log)
    let body: unknown = undefined
    if (options.body && req.method === 'POST') {
      const raw = await readBodyText(req)
      options.verifyBody?.({ req, rawBody: raw, config, log })
      const fields =
        options.bodyKind === 'form'
          ? formFields(req, raw)
          : options.bodyKind === 'text'
            ? raw
            : parseJsonObject(raw, auth === 'none' ? null : {})
      const parsed = options.body.safeParse(fields)
      if (!parsed.success) throw invalid(parsed.error)
      body = parsed.data
    }
    const answer = await options.handle({
      req,
      context,
      body: body as z.output<Schema>,
      config,
      log,
      actor,
      groups,
    })
    return answer instanceof Response ? answer : jsonResponse({ success: true, ...answer })
  }
}

/** The fields of an urlencoded form body; none for a body of another type. */
function formFields(req: Request, raw: string): Record<string, string> {
  const type = req.headers.get('content-type') ?? ''
  if (!type.includes('application/x-www-form-urlencoded')) return {}
  return Object.fromEntries(new URLSearchParams(raw))
}
