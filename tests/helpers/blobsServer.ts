import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AtomicBlobsServer } from '../../scripts/atomicBlobsServer.js'

export interface BlobOperation {
  type: string
  url: string
}

export interface RunningBlobsServer {
  url: string
  /** The folder the server keeps its blobs in (a test may read every file of it). */
  directory: string
  /** Every operation the server handled, in order (clear it with `operations.length = 0`). */
  operations: BlobOperation[]
  /** Value for NETLIFY_BLOBS_CONTEXT pointing at this server. */
  blobsContext: string
  stop(): Promise<void>
}

export function blobsContextFor(url: string, token = 'test-token'): string {
  const context = { edgeURL: url, uncachedEdgeURL: url, siteID: 'test-site', token }
  return Buffer.from(JSON.stringify(context)).toString('base64')
}

/**
 * A real local Blobs server (with Netlify's atomic conditional writes) on a random port, in a fresh
 * directory. Sets NETLIFY_BLOBS_CONTEXT so
 * that `getStore` inside handlers talks to it, exactly as on Netlify.
 */
export async function startBlobsServer(): Promise<RunningBlobsServer> {
  const directory = await mkdtemp(join(tmpdir(), 'blobs-'))
  const token = 'test-token'
  const operations: BlobOperation[] = []
  const server = new AtomicBlobsServer({
    directory,
    token,
    port: 0,
    onRequest: ({ type, url }) => void operations.push({ type, url }),
  })
  const { port } = await server.start()
  const url = `http://127.0.0.1:${port}`
  const blobsContext = blobsContextFor(url, token)
  process.env.NETLIFY_BLOBS_CONTEXT = blobsContext
  return {
    url,
    directory,
    operations,
    blobsContext,
    async stop() {
      await server.stop()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
