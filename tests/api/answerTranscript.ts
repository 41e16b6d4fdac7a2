/**
 * A transcript of a run of requests: each request with its answer's status, the headers a client
 * acts on and its body, written so that two runs of the same requests give the same text. What
 * differs from run to run by design is replaced by a stable placeholder: ids (numbered in the
 * order they first appear, so the same id keeps its number), times, the service's origin and the
 * signatures of links (and a login's one-time values: nonce, code, PKCE challenge). A change of any other byte shows in the transcript's diff.
 */
export interface Transcript {
  /** Adds one request and its answer. */
  add(entry: TranscriptEntry): void
  /** The whole transcript as text. */
  text(): string
}

export interface TranscriptEntry {
  method: string
  /** The requested URL (its origin is dropped). */
  url: string
  status: number
  headers: Headers
  body: string
}

/** Headers a client reads; the rest (dates, request ids, server names) say nothing of behaviour. */
const KEPT_HEADERS = [
  'allow',
  'cache-control',
  'content-type',
  'content-disposition',
  'location',
  'retry-after',
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
]

export function openTranscript(): Transcript {
  const numbers = new Map<string, string>()
  const entries: string[] = []
  const placeholder = (kind: string, value: string): string => {
    const key = `${kind}:${value}`
    let name = numbers.get(key)
    if (!name) {
      name = `<${kind}${[...numbers.keys()].filter((k) => k.startsWith(`${kind}:`)).length + 1}>`
      numbers.set(key, name)
    }
    return name
  }
  const normalize = (text: string): string =>
    text
      .replace(/https?:\/\/(localhost|127\.0\.0\.1):\d+/g, '<origin>')
      .replace(/https?%3A%2F%2F(localhost|127\.0\.0\.1)%3A\d+/g, '<origin>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) =>
        placeholder('uuid', id),
      )
      .replace(/ntf_\d{13}-[0-9a-f]{10}/g, (id) => placeholder('ntf', id))
      .replace(/cns_\d{13}-[0-9a-f]{10}/g, (id) => placeholder('cns', id))
      .replace(/syn_[0-9a-f]{16}/g, (id) => placeholder('syn', id))
      .replace(/\b[0-9A-HJKMNP-TV-Z]{26}\b/g, '<request-id>')
      .replace(/[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, '<signed>')
      .replace(/("nextCursor":|[?&]cursor=)"?[A-Za-z0-9_=-]{16,}/g, '$1<cursor>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g, '<time>')
      .replace(/\d{4}\/\d{1,2}\/\d{1,2}( \d{1,2}:\d{2})?/g, '<jst-time>')
      .replace(/\d{4}年\d{1,2}月\d{1,2}日( \d{1,2}:\d{2})?/g, '<jst-time>')
      .replace(/\b\d{8}-\d{4}\b/g, '<stamp>')
      .replace(/\d{4}-\d{2}-\d{2}/g, '<day>')
      .replace(
        /([?&](token|t|s|sig|signature|ticket|nonce|code|code_challenge)=)[^&"'\s<]+/g,
        '$1<signed>',
      )
      .replace(/\b\d{13}\b/g, '<ms>')
  return {
    add(entry) {
      const url = new URL(entry.url)
      const headers = KEPT_HEADERS.filter((name) => entry.headers.has(name))
        .map((name) => `${name}: ${entry.headers.get(name)}`)
        .join('\n')
      entries.push(
        normalize(
          `${entry.method} ${url.pathname}${url.search} → ${entry.status}\n${headers}\n\n${entry.body}`,
        ),
      )
    },
    text: () => `${entries.join('\n\n---\n\n')}\n`,
  }
}
