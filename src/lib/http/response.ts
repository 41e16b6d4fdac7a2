export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/** A JSON response with the one content type every endpoint answers with (D8). */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers)
  headers.set('Content-Type', JSON_CONTENT_TYPE)
  return new Response(JSON.stringify(body), { ...init, headers })
}
