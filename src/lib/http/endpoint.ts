import type { Context } from '@netlify/functions'
import type { z } from 'zod'
import { requireToken, type TokenGroup } from './auth.js'
import { loadConfig, type AppConfig } from '../config.js'
import { createLogger, type Logger } from '../log.js'
import { RecordUpdateConflictError } from '../storage/recordCollection.js'
import { corsHeaders, preflightResponse, type CorsPolicy } from './cors.js'
import { HttpError } from './errors.js'
import { parseJsonObject, readBodyText } from './requestBody.js'

type Method = 'GET' | 'POST'

/** What a handler receives once the wrapper has checked everything it checks. */
export interface EndpointInput<Body> {
  req: Request
  context: Context
  body: Body
  config: AppConfig
  log: Logger
}

export interface EndpointOptions<Schema extends z.ZodType> {
  /** Methods the endpoint answers; anything else gets 405 with `Allow` (D8). OPTIONS is always answered. */
  methods: Method[]
  /** Token group (§5, D7), or `none` for public endpoints. */
  auth: TokenGroup | 'none'
  /** CORS policy (D8). Default: `admin` for token groups, `public` otherwise. */
  cors?: CorsPolicy
  /** Schema of the body (POST). Omit for GET endpoints. */
  body?: Schema
  /**
   * How a POST body is read: `json` (D8) or `form` (the fields of an
   * `application/x-www-form-urlencoded` body; a body of any other type has no fields). Default: `json`.
   */
  bodyKind?: 'json' | 'form'
  /**
   * The answer to a failure for this endpoint's callers (e.g. an HTML page), or null for the JSON
   * shape; `headers` (such as `Allow`) are added to it. Default: always JSON.
   */
  errorPage?: (req: Request, status: number) => Response | null
  /**
   * Checks the body exactly as received, before it is parsed (a signed webhook's signature); it
   * throws the answer to a refused request. Default: none.
   */
  verifyBody?: (input: { req: Request; rawBody: string; config: AppConfig; log: Logger }) => void
  /** Turns a failed validation into the endpoint's documented 400. Default: the first issue's message. */
  invalid?: (error: z.ZodError) => HttpError
  /** Text of the 500 answer (D8: the public forms answer in Japanese). Default: `Internal server error`. */
  internalErrorMessage?: string
  handle: (input: EndpointInput<z.output<Schema>>) => Promise<Response>
}

export const INTERNAL_ERROR_MESSAGE = 'Internal server error'
/** 409 when a record kept changing under an update (RecordUpdateConflictError); nothing was written. */
export const CONFLICT_MESSAGE =
  'The record was changed by another request at the same time; try again'

function firstIssue(error: z.ZodError): HttpError {
  return new HttpError(400, error.issues[0]?.message ?? 'Invalid request body')
}

function requestIdOf(req: Request, context: Context | undefined): string {
  return context?.requestId || req.headers.get('x-nf-request-id') || crypto.randomUUID()
}

/**
 * The one request wrapper every endpoint uses: method, preflight, authentication (before anything
 * else, §5), body size, JSON, validation, then the handler; expected failures answer as
 * HttpError, everything else is a logged 500 without detail (D8).
 */
export function defineEndpoint<Schema extends z.ZodType>(options: EndpointOptions<Schema>) {
  const allow = [...options.methods, 'OPTIONS'].join(', ')
  const cors = options.cors ?? (options.auth === 'none' ? 'public' : 'admin')
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
      config = loadConfig(process.env, {
        context: context?.deploy?.context,
        origin: new URL(req.url).origin,
      })
      response = await answer(req, context, config, log)
    } catch (error) {
      response = failureResponse(req, expectedFailure(error, req, log))
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
    if (error instanceof HttpError) return error
    if (error instanceof RecordUpdateConflictError) {
      log.warn('request.conflict', { key: error.key })
      return new HttpError(409, CONFLICT_MESSAGE)
    }
    log.error('request.failed', error, { method: req.method, path: new URL(req.url).pathname })
    return new HttpError(500, internalErrorMessage)
  }

  function failureResponse(req: Request, failure: HttpError): Response {
    const page = options.errorPage?.(req, failure.status)
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
    if (options.auth !== 'none') requireToken(req, options.auth, config, log)
    let body: unknown = undefined
    if (options.body && req.method === 'POST') {
      const raw = await readBodyText(req)
      options.verifyBody?.({ req, rawBody: raw, config, log })
      const fields =
        options.bodyKind === 'form'
          ? formFields(req, raw)
          : parseJsonObject(raw, options.auth === 'none' ? null : {})
      const parsed = options.body.safeParse(fields)
      if (!parsed.success) throw invalid(parsed.error)
      body = parsed.data
    }
    return options.handle({ req, context, body: body as z.output<Schema>, config, log })
  }
}

/** The fields of an urlencoded form body; none for a body of another type. */
function formFields(req: Request, raw: string): Record<string, string> {
  const type = req.headers.get('content-type') ?? ''
  if (!type.includes('application/x-www-form-urlencoded')) return {}
  return Object.fromEntries(new URLSearchParams(raw))
}
