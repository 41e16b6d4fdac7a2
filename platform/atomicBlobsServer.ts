import { utimes } from 'node:fs/promises'
import { BlobsServer } from '@netlify/blobs/server'

type BlobsServerOptions = ConstructorParameters<typeof BlobsServer>[0]

/** The parts of the stock server this subclass reaches; TypeScript declares them private. */
interface StockInternals {
  handleRequest(req: Request): Promise<Response>
  getLocalPaths(url: URL): { dataPath?: string; key?: string }
  address: string
}

const stock = BlobsServer as unknown as { generateETag(path: string): Promise<string> }

/**
 * The local Blobs server with the guarantees Netlify's service gives:
 *
 * - **Atomic conditional writes.** The stock server checks `If-Match` / `If-None-Match` and then
 *   writes in separate steps, so two writers can both pass the check. Here every request of one
 *   key waits for the previous one to finish (the server is one process, whatever threads
 *   or workers call it), which makes check-then-write atomic.
 * - **An ETag per write.** The stock ETag is derived from the file's modification time in
 *   milliseconds, so two writes within one millisecond got the same ETag and a compare-and-swap
 *   could overwrite a change it never saw. Every write here stamps the file with a time strictly
 *   later than any stamp before it.
 *
 * - **An ETag on every read**, as Netlify answers it (the stock server sends none on reads, so a
 *   compare-and-swap had nothing to compare). A read of a key waits for that key's writes, so the
 *   ETag it answers is the one of the content it answers.
 *
 * - **Keys listed as written.** The stock server keeps a key's non-ASCII characters
 *   percent-encoded in its file names (as they arrive in the request's path) and lists those
 *   names, so `ううう/1` was listed as `%E3%81%86…/1` and a prefix of non-ASCII text matched
 *   nothing. Here a listing's prefix is encoded as a path is, and the keys and folders it
 *   answers are decoded again, as Netlify lists them.
 *
 * Listings are not serialised: they answer each blob's current ETag.
 */
export class AtomicBlobsServer extends BlobsServer {
  readonly #tails = new Map<string, Promise<unknown>>()
  #lastStamp = 0

  constructor(options: BlobsServerOptions) {
    super(options)
    const internals = this as unknown as StockInternals
    const handle = internals.handleRequest.bind(this)
    internals.handleRequest = (req) => this.#handle(req, handle)
  }

  #handle(req: Request, handle: (req: Request) => Promise<Response>): Promise<Response> {
    const method = req.method?.toUpperCase() ?? ''
    const internals = this as unknown as StockInternals
    const url = new URL(req.url ?? '', internals.address)
    const { dataPath, key } = internals.getLocalPaths(url)
    if (dataPath && !key && method === 'GET') return listed(req, url, handle)
    if (!dataPath || !key || !['GET', 'HEAD', 'PUT', 'DELETE'].includes(method)) return handle(req)
    return this.#inTurn(dataPath, async () => {
      const response = await handle(req)
      if (response.status !== 200 || method === 'DELETE') return response
      if (method === 'PUT') await this.#stamp(dataPath)
      const etag = await stock.generateETag(dataPath)
      if (method === 'GET' && req.headers.get('if-none-match') === etag) {
        await response.body?.cancel()
        return notModified(response, etag)
      }
      return withEtag(response, etag)
    })
  }

  /** Runs `work` after every earlier request of the same blob has finished. */
  #inTurn(dataPath: string, work: () => Promise<Response>): Promise<Response> {
    const run = (this.#tails.get(dataPath) ?? Promise.resolve()).then(work)
    const tail = run.catch(() => undefined)
    this.#tails.set(dataPath, tail)
    void tail.then(() => {
      if (this.#tails.get(dataPath) === tail) this.#tails.delete(dataPath)
    })
    return run
  }

  /** Gives the written file a modification time that no earlier write had. */
  async #stamp(dataPath: string): Promise<void> {
    const stamp = Math.max(Date.now(), this.#lastStamp + 1)
    this.#lastStamp = stamp
    await utimes(dataPath, new Date(stamp), new Date(stamp))
  }
}

// why: runs of escaped bytes of 0x80 and above are what the URL parser made of non-ASCII
// characters; escapes of ASCII (`%25`, `%2F`) are kept, as a key may hold them literally
const ENCODED_NON_ASCII = /(?:%[89A-Fa-f][0-9A-Fa-f])+/g
const NON_ASCII = /[^\p{ASCII}]+/gu

function decodeNonAscii(name: string): string {
  return name.replace(ENCODED_NON_ASCII, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })
}

/** A listing with its prefix encoded as the stock server's file names are, its keys decoded. */
async function listed(
  req: Request,
  url: URL,
  handle: (req: Request) => Promise<Response>,
): Promise<Response> {
  const prefix = url.searchParams.get('prefix')
  if (prefix !== null) {
    url.searchParams.set(
      'prefix',
      prefix.replace(NON_ASCII, (run) => encodeURIComponent(run)),
    )
  }
  const response = await handle(new Request(url, { method: req.method, headers: req.headers }))
  if (response.status !== 200) return response
  const body = (await response.json()) as {
    blobs?: { key: string }[]
    directories?: string[]
  }
  const blobs = body.blobs?.map((blob) => ({ ...blob, key: decodeNonAscii(blob.key) }))
  const directories = body.directories?.map(decodeNonAscii)
  return Response.json({ ...body, blobs, directories }, { headers: response.headers })
}

/** 304 with the blob's ETag and metadata headers, without its content. */
function notModified(response: Response, etag: string): Response {
  const headers = new Headers(response.headers)
  headers.set('etag', etag)
  headers.delete('content-length')
  return new Response(null, { status: 304, headers })
}

function withEtag(response: Response, etag: string): Response {
  const headers = new Headers(response.headers)
  headers.set('etag', etag)
  return new Response(response.body, { status: response.status, headers })
}
