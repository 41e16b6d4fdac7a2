import { getStore } from '@netlify/blobs'
import { BlobsServer } from '@netlify/blobs/server'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AtomicBlobsServer } from '../../platform/atomicBlobsServer.js'

const WRITERS = 200
const ROUNDS = 5

async function serve(Server: typeof BlobsServer) {
  const directory = await mkdtemp(join(tmpdir(), 'atomic-blobs-'))
  const server = new Server({ directory, token: 'token', port: 0 })
  const { port } = await server.start()
  const url = `http://127.0.0.1:${port}`
  const store = getStore({
    name: 'race',
    siteID: 'site',
    token: 'token',
    edgeURL: url,
    uncachedEdgeURL: url,
    consistency: 'strong',
  })
  return {
    store,
    stop: async () => {
      await server.stop()
      await rm(directory, { recursive: true, force: true })
    },
  }
}

/** Every writer saw the same ETag; each tries to replace the blob with its own value. */
async function raceOnce(store: ReturnType<typeof getStore>, key: string, round: number) {
  // why: the ETag of a write, since the stock server answers none on reads
  const { etag } = await store.set(key, `round ${round}`)
  expect(etag).toMatch(/^".+"$/)
  const results = await Promise.all(
    Array.from({ length: WRITERS }, (_, writer) =>
      store.set(key, `round ${round} writer ${writer}`, { onlyIfMatch: etag! }),
    ),
  )
  return results.filter((result) => result.modified).length
}

describe('AtomicBlobsServer', () => {
  let atomic: Awaited<ReturnType<typeof serve>>
  beforeAll(async () => (atomic = await serve(AtomicBlobsServer)))
  afterAll(async () => atomic?.stop())

  it(`lets exactly one of ${WRITERS} concurrent onlyIfMatch writers win, every round`, async () => {
    const winners = []
    for (let round = 0; round < ROUNDS; round++)
      winners.push(await raceOnce(atomic.store, 'counter', round))
    expect(winners).toEqual(Array(ROUNDS).fill(1))
  })

  it(`lets exactly one of ${WRITERS} concurrent onlyIfNew writers create a key`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const results = await Promise.all(
        Array.from({ length: WRITERS }, (_, writer) =>
          atomic.store.set(`new-${round}`, String(writer), { onlyIfNew: true }),
        ),
      )
      expect(results.filter((result) => result.modified)).toHaveLength(1)
    }
  })

  it('answers the current ETag on reads, so a read-then-swap can succeed', async () => {
    await atomic.store.set('read-then-swap', 'one')
    const read = await atomic.store.getWithMetadata('read-then-swap')
    const swapped = await atomic.store.set('read-then-swap', 'two', { onlyIfMatch: read!.etag! })
    expect(swapped.modified).toBe(true)
    expect((await atomic.store.getMetadata('read-then-swap'))?.etag).toBe(swapped.etag)
  })

  it('gives every write a new ETag, even within one millisecond', async () => {
    const etags = new Set<string>()
    for (let write = 0; write < 50; write++) {
      const result = await atomic.store.set('fast', String(write))
      etags.add(result.etag!)
    }
    expect(etags.size).toBe(50)
    const stored = await atomic.store.getWithMetadata('fast')
    expect(etags.has(stored!.etag!)).toBe(true)
  })

  it('refuses an onlyIfMatch write after a delete (no resurrection)', async () => {
    await atomic.store.set('doomed', 'alive')
    const read = await atomic.store.getWithMetadata('doomed')
    await atomic.store.delete('doomed')
    const result = await atomic.store.set('doomed', 'back', { onlyIfMatch: read!.etag! })
    expect(result.modified).toBe(false)
    expect(await atomic.store.get('doomed')).toBeNull()
  })
})

describe('the stock BlobsServer (why the atomic one exists)', () => {
  let stockServer: Awaited<ReturnType<typeof serve>>
  beforeAll(async () => (stockServer = await serve(BlobsServer)))
  afterAll(async () => stockServer?.stop())

  it('lets more than one concurrent onlyIfMatch writer win', async () => {
    let most = 0
    for (let round = 0; round < ROUNDS && most <= 1; round++)
      most = Math.max(most, await raceOnce(stockServer.store, 'counter', round))
    expect(most).toBeGreaterThan(1)
  })
})
