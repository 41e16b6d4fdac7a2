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
    const { dataPath, key } = internals.getLocalPaths(new URL(req.url ?? '', internals.address))
    if (!dataPath || !key || !['GET', 'HEAD', 'PUT', 'DELETE'].includes(method)) return handle(req)
    return this.#inTurn(dataPath, async () => {
      const response = await handle(req)
      if (response.status !== 200 || method === 'DELETE') return response
      if (method === 'PUT') await this.#stamp(dataPath)
      return withEtag(response, await stock.generateETag(dataPath))
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

function withEtag(response: Response, etag: string): Response {
  const headers = new Headers(response.headers)
  headers.set('etag', etag)
  return new Response(response.body, { status: response.status, headers })
}
