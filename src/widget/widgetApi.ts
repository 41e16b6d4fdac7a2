/**
 * How the widgets reach the service: `endpoint` attribute (the service's base URL), else the
 * origin the widget script itself was loaded from.
 */

// why: read once at load time; import.meta.url is the URL of the bundled widget script
const SCRIPT_ORIGIN = new URL(import.meta.url).origin

/** An answer of the service: status and parsed JSON (`null` when the body was not JSON). */
export interface ApiAnswer {
  status: number
  body: Record<string, unknown> | null
}

/** The request never got an answer (offline, DNS, CORS refused, aborted). */
export class ApiUnreachableError extends Error {
  override name = 'ApiUnreachableError'
}

/** The URL of `path` (e.g. `/api/search`) on the element's endpoint. */
export function apiUrl(element: Element, path: string): URL {
  const endpoint = element.getAttribute('endpoint')?.trim() || SCRIPT_ORIGIN
  // why: relative to the endpoint, so a service mounted under a path (https://x.example/shop) works
  return new URL(path.replace(/^\//, ''), endpoint.endsWith('/') ? endpoint : `${endpoint}/`)
}

/** Fetches and parses a JSON answer; only a missing answer throws (ApiUnreachableError). */
export async function callApi(url: URL, init: RequestInit = {}): Promise<ApiAnswer> {
  let response: Response
  try {
    response = await fetch(url, { ...init, mode: 'cors', credentials: 'omit' })
  } catch (error) {
    if (init.signal?.aborted) throw error
    throw new ApiUnreachableError(String(error))
  }
  let body: Record<string, unknown> | null = null
  try {
    const parsed: unknown = await response.json()
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      body = parsed as Record<string, unknown>
    }
  } catch {
    body = null
  }
  return { status: response.status, body }
}

/** The Japanese text shown for an answer that is not a success. */
export function failureText(answer: ApiAnswer | null): string {
  if (!answer) return '通信に失敗しました。接続を確認して、もう一度お試しください。'
  if (answer.status === 429) {
    return 'ただいまアクセスが集中しています。しばらくしてから再度お試しください。'
  }
  const error = answer.body?.error
  if (typeof error === 'string' && error) return error
  return 'サーバーエラーが発生しました。しばらくしてから再度お試しください。'
}
