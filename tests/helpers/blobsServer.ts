import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { AtomicBlobsServer } from '../../platform/atomicBlobsServer.js'
import { openRepositories, type Repositories } from '../../src/lib/storage/repositories.js'
import { fakeContext } from './context.js'

export interface BlobOperation {
  type: string
  url: string
}

/** The running server of `useBlobsServer`, read inside tests and hooks. */
export interface RunningBlobsServer {
  readonly url: string
  /** Every operation the server handled, in order (clear it with `operations.length = 0`). */
  readonly operations: BlobOperation[]
  /** Value for NETLIFY_BLOBS_CONTEXT pointing at this server. */
  readonly blobsContext: string
  /** Repositories on this server, in the default deploy context (opened once the server runs). */
  readonly repositories: Repositories
}

const TOKEN = 'test-token'

export function blobsContextFor(url: string, token = TOKEN): string {
  const context = { edgeURL: url, uncachedEdgeURL: url, siteID: 'test-site', token }
  return Buffer.from(JSON.stringify(context)).toString('base64')
}

/** Options of `useBlobsServer`. */
export interface BlobsServerOptions {
  /**
   * Runs after the file's last test, before the server stops: waits for background work that
   * still writes (`waitUntil` promises). Default: none.
   */
  beforeStop?: () => Promise<void>
}

/**
 * The test file's real local Blobs server (with Netlify's atomic conditional writes), on a random
 * port in a fresh directory: started before the file's first test, stopped after its last. Before
 * every test NETLIFY_BLOBS_CONTEXT points at it again (a test may point it elsewhere), so that
 * `getStore` inside handlers talks to it, exactly as on Netlify. The one way tests start one.
 */
export function useBlobsServer(options: BlobsServerOptions = {}): RunningBlobsServer {
  let started: {
    server: AtomicBlobsServer
    directory: string
    url: string
    repositories: Repositories
  } | null = null
  const operations: BlobOperation[] = []
  beforeAll(async () => {
    const directory = await mkdtemp(join(tmpdir(), 'blobs-'))
    const server = new AtomicBlobsServer({
      directory,
      token: TOKEN,
      port: 0,
      onRequest: ({ type, url }) => void operations.push({ type, url }),
    })
    const { port } = await server.start()
    const url = `http://127.0.0.1:${port}`
    process.env.NETLIFY_BLOBS_CONTEXT = blobsContextFor(url)
    started = { server, directory, url, repositories: openRepositories(fakeContext()) }
  })
  beforeEach(() => {
    if (started) process.env.NETLIFY_BLOBS_CONTEXT = blobsContextFor(started.url)
  })
  afterAll(async () => {
    await options.beforeStop?.()
    if (!started) return
    await started.server.stop()
    await rm(started.directory, { recursive: true, force: true })
  })
  const running = (): NonNullable<typeof started> => {
    if (!started) throw new Error('useBlobsServer: read the server inside a test or hook')
    return started
  }
  return {
    get url() {
      return running().url
    },
    operations,
    get blobsContext() {
      return blobsContextFor(running().url)
    },
    get repositories() {
      return running().repositories
    },
  }
}
