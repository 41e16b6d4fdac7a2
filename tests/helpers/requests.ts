const BASE = 'http://localhost:8888'

export interface JsonRequestOptions {
  method?: string
  token?: string | null
  headers?: Record<string, string>
}

/** A real `Request` with a JSON body (a string is sent as it is). */
export function jsonRequest(
  path: string,
  body?: unknown,
  options: JsonRequestOptions = {},
): Request {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...options.headers }
  if (options.token) headers.Authorization = `Bearer ${options.token}`
  return new Request(new URL(path, BASE), {
    method: options.method ?? 'POST',
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** Status, headers and parsed JSON of a response. */
export async function readJson(response: Response): Promise<{
  status: number
  headers: Headers
  body: Record<string, any>
}> {
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} }
}
