import type { AppConfig } from '../config.js'

/** `public`: any origin (storefront forms, search). `admin`: only ADMIN_ALLOWED_ORIGINS (D8). */
export type CorsPolicy = 'public' | 'admin'

// why: Idempotency-Key: the widgets send one with each reservation (forms/idempotentRequest.ts)
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key'
const PREFLIGHT_MAX_AGE_SECONDS = '86400'

/** CORS headers for a response to `req`; empty when the origin may not read it. */
export function corsHeaders(
  req: Request,
  policy: CorsPolicy,
  config: AppConfig,
): Record<string, string> {
  if (policy === 'public') return { 'Access-Control-Allow-Origin': '*' }
  const origin = req.headers.get('origin')
  if (!origin || !config.adminAllowedOrigins.includes(origin)) return {}
  // why: the answer differs per origin, so shared caches must key on it
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' }
}

/** The answer to an OPTIONS preflight. */
export function preflightResponse(
  req: Request,
  policy: CorsPolicy,
  config: AppConfig,
  allow: string,
): Response {
  const headers: Record<string, string> = { Allow: allow, ...corsHeaders(req, policy, config) }
  if (headers['Access-Control-Allow-Origin']) {
    headers['Access-Control-Allow-Methods'] = allow
    headers['Access-Control-Allow-Headers'] = ALLOWED_HEADERS
    headers['Access-Control-Max-Age'] = PREFLIGHT_MAX_AGE_SECONDS
  }
  return new Response(null, { status: 204, headers })
}
