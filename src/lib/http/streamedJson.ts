import { JSON_CONTENT_TYPE } from './response.js'

/** Items serialised per chunk of a streamed answer. */
const ITEMS_PER_CHUNK = 500

/**
 * `{success: true, [field]: items, ...rest}` as a streamed JSON answer, written a few hundred
 * items at a time as the client reads: the same JSON as `jsonResponse`, but never one string of
 * the whole list in memory, and within Netlify's streamed limit (20 MB) instead of the buffered
 * one (6 MB).
 */
export function streamedJsonList(
  field: string,
  items: readonly unknown[],
  rest: Record<string, unknown> = {},
): Response {
  const encoder = new TextEncoder()
  let next = 0
  const tail = JSON.stringify(rest).slice(1)
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next === 0 && items.length === 0) {
        controller.enqueue(encoder.encode(`{"success":true,${JSON.stringify(field)}:[]`))
      } else {
        const chunk = items.slice(next, next + ITEMS_PER_CHUNK).map((item) => JSON.stringify(item))
        const head = next === 0 ? `{"success":true,${JSON.stringify(field)}:[` : ','
        next += chunk.length
        controller.enqueue(encoder.encode(head + chunk.join(',')))
        if (next < items.length) return
        controller.enqueue(encoder.encode(']'))
      }
      controller.enqueue(encoder.encode(tail === '}' ? '}' : `,${tail}`))
      controller.close()
    },
  })
  return new Response(stream, { headers: { 'Content-Type': JSON_CONTENT_TYPE } })
}
