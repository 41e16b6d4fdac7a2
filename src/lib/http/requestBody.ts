import { HttpError } from './errors.js'

/** Largest accepted request body (D8): 100 KB. */
export const MAX_BODY_BYTES = 100 * 1024

/** Reads the body as text, refusing more than MAX_BODY_BYTES without buffering the excess. */
export async function readBodyText(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) throw tooLarge()
  if (!req.body) return ''
  const reader = req.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function tooLarge(): HttpError {
  return new HttpError(413, 'Request body too large')
}

/**
 * Parses a JSON object body (D8). `emptyAs`: what an empty body means (`{}` on admin endpoints);
 * `null` makes an empty body invalid JSON.
 */
export function parseJsonObject(
  text: string,
  emptyAs: Record<string, unknown> | null,
): Record<string, unknown> {
  if (text.trim() === '' && emptyAs) return { ...emptyAs }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new HttpError(400, 'Invalid JSON body')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'Request body must be a JSON object')
  }
  return value as Record<string, unknown>
}
