import { createHash } from 'node:crypto'
import { AlreadyInProgressError, InvalidInputError, KeyReusedError } from '../errors.js'
import type { Logger } from '../log.js'
import type { IdempotencyKeyBook } from '../storage/idempotencyKeys.js'

/**
 * The `Idempotency-Key` request header of POST /api/reservation, with the semantics of Stripe's
 * API and the IETF draft (draft-ietf-httpapi-idempotency-key-header): the first request with a
 * key runs; the same key with the same request answers the first answer again, and runs nothing;
 * the same key with another request is refused (422). Without the header every request runs.
 * Only a success is remembered: a refused or failed request may be sent again with its key.
 */

/** The header's name. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'

/** Longest key (Stripe's limit). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

export const KEY_INVALID_MESSAGE = `${IDEMPOTENCY_KEY_HEADER} ヘッダーが正しくありません。${IDEMPOTENCY_KEY_MAX_LENGTH}文字以内の半角英数字と記号で指定してください（例: UUID）。`
export const KEY_REUSED_MESSAGE = `この ${IDEMPOTENCY_KEY_HEADER} は別の内容の送信に使われています。内容を変えて送るときは、新しいキーを使ってください。`
export const KEY_BUSY_MESSAGE = `同じ ${IDEMPOTENCY_KEY_HEADER} の送信をまだ処理しています。少し待ってから、同じキーでもう一度お試しください。`

// why: a sf-string (the draft's form, `"…"`) or a bare token (Stripe's); printable ASCII
const KEY_TEXT = /^[\x20-\x7e]+$/

/** The key of the request's header, or null without one; a malformed one is a 400. */
export function idempotencyKeyOf(headers: Headers): string | null {
  const raw = headers.get(IDEMPOTENCY_KEY_HEADER)
  if (raw === null) return null
  let key = raw.trim()
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) key = key.slice(1, -1)
  if (!key || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !KEY_TEXT.test(key)) {
    throw new InvalidInputError(KEY_INVALID_MESSAGE)
  }
  return key
}

/** How long a repeat waits for the first request with its key to answer, and how often it looks. */
const BUSY_WAIT_MS = 5_000
const BUSY_POLL_MS = 100

export interface OnceOptions {
  keys: IdempotencyKeyBook
  /** Names the endpoint: a key is remembered per operation. */
  operation: string
  /** The request's key, or null (then `run` always runs). */
  key: string | null
  /** The request as validated: "the same request" is the same of this (and the same key). */
  request: unknown
  now: () => number
  log: Logger
}

/**
 * Runs `run` once per key and request (see above): its answer, or the first answer of an earlier
 * request with the same key and request. A repeat that arrives while the first request runs
 * waits for its answer (at most BUSY_WAIT_MS, then 409).
 */
export async function answerOnce<Answer extends Record<string, unknown>>(
  options: OnceOptions,
  run: () => Promise<Answer>,
): Promise<Answer> {
  const { keys, operation, key, log } = options
  if (key === null) return run()
  // why: the key salts the digest, so the mark keeps nothing that could be matched to a person
  const fingerprint = createHash('sha256')
    .update(`${key}\n${JSON.stringify(options.request)}`)
    .digest('hex')
  for (let waited = 0; ; waited += BUSY_POLL_MS) {
    const start = await keys.begin(operation, key, fingerprint, options.now())
    if (start.state === 'answered') {
      log.info('request.key_replayed', { operation })
      return start.answer as Answer
    }
    if (start.state === 'other-request') throw new KeyReusedError(KEY_REUSED_MESSAGE)
    if (start.state === 'in-progress') {
      if (waited >= BUSY_WAIT_MS) throw new AlreadyInProgressError(KEY_BUSY_MESSAGE)
      await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS))
      continue
    }
    let answer: Answer
    try {
      answer = await run()
    } catch (error) {
      await start.release().catch((releaseError: unknown) => {
        log.warn('request.key_release_failed', { operation, error: String(releaseError) })
      })
      throw error
    }
    try {
      await start.finish(answer)
    } catch (error) {
      // why: what was made stays made; a repeat of the key is refused (409) until its mark counts
      // as dead (KEY_IN_PROGRESS_LIMIT_MS)
      log.error('request.key_finish_failed', error, { operation })
    }
    return answer
  }
}
