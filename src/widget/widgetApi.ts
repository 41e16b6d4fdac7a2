/**
 * How the widgets reach the service: `endpoint` attribute (the service's base URL), else the
 * origin the widget script itself was loaded from.
 */

/**
 * The origin the widget script was loaded from, read once at load time. No `import.meta`: the one
 * bundle is a classic script, so that `<script src>` and `<script type="module" src>` both work.
 * A classic script is `document.currentScript`; a module script is not, so it is found by its name.
 */
function scriptOrigin(): string {
  const current = document.currentScript as HTMLScriptElement | null
  const script = current?.src
    ? current
    : document.querySelector<HTMLScriptElement>(`script[src*="${SCRIPT_NAME}"]`)
  return new URL(script?.src ?? location.href).origin
}

/** The file name the widget bundle is served under (scripts/build-browser.ts). */
const SCRIPT_NAME = 'shop-widget.js'
const SCRIPT_ORIGIN = scriptOrigin()

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
