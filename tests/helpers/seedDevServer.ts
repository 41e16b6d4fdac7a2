import { join } from 'node:path'
import { AtomicBlobsServer } from '../../platform/atomicBlobsServer.js'
import { mapWithConcurrency } from '../../src/lib/concurrency.js'
import {
  LOCAL_BLOBS_SERVER_VARIABLE,
  openStore,
  RECORDS_STORE,
} from '../../src/lib/storage/blobStore.js'
import type { Reservation } from '../../src/lib/storage/records.js'
import { rebuildIndexes } from '../../src/lib/storage/listing/indexMaintenance.js'
import { openRepositories, reservationRepository } from '../../src/lib/storage/repositories.js'
import { fakeContext } from './context.js'

/**
 * Runs `work` against the Blobs data of a running `npm start` (tests/helpers' dev server) through
 * a second Blobs server on the same folder, with a deploy context whose stores are the service's:
 * what a test writes there, the service reads, as if its own functions had written it.
 */
export async function withDevServerBlobs(
  root: string,
  work: (context: ReturnType<typeof fakeContext>) => Promise<void>,
): Promise<void> {
  const token = crypto.randomUUID()
  const blobs = new AtomicBlobsServer({
    directory: join(root, '.netlify/local-blobs'),
    token,
    port: 0,
  })
  const { port } = await blobs.start()
  const previous = process.env[LOCAL_BLOBS_SERVER_VARIABLE]
  process.env[LOCAL_BLOBS_SERVER_VARIABLE] = JSON.stringify({
    edgeURL: `http://127.0.0.1:${port}`,
    siteID: 'local',
    token,
  })
  try {
    const context = fakeContext({ deployContext: 'dev' })
    await work(context)
    await context.settled()
  } finally {
    if (previous === undefined) delete process.env[LOCAL_BLOBS_SERVER_VARIABLE]
    else process.env[LOCAL_BLOBS_SERVER_VARIABLE] = previous
    await blobs.stop()
  }
}

/**
 * Writes `records` into the Blobs data of a running `npm start` (`withDevServerBlobs`), as its
 * own functions would (every write through the repository, dated two days back); then builds and
 * folds the record indexes, as a shop that took these reservations over months would have them.
 * Thousands of records in seconds instead of the minutes thousands of API calls take through the
 * local server's limiting proxy.
 */
export async function seedDevServerReservations(
  root: string,
  records: readonly Reservation[],
): Promise<void> {
  await withDevServerBlobs(root, async (context) => {
    const store = openStore(RECORDS_STORE, context)
    // why: a shop's records accumulate over months; their index deltas are long settled
    const writer = reservationRepository(store, {
      scope: 'seed-writer',
      now: () => Date.now() - 2 * DAY_MS,
    })
    await mapWithConcurrency(records, 32, (record) => writer.create(record, record))
    // why: as the service would leave them: every index built (the background rebuild) and the
    // seeded records folded into their product's index
    const { store: recordsStore, indexes } = openRepositories(context)
    for (let attempt = 0; ; attempt++) {
      const outcome = await rebuildIndexes(recordsStore, indexes, {
        now: Date.now,
        deadline: Date.now() + 60_000,
        owner: 'seed',
      })
      if (outcome === 'complete') break
      if (attempt > 120) throw new Error(`seeding: the index rebuild stayed ${outcome}`)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    for (const productSlug of new Set(records.map((record) => record.productSlug))) {
      await writer.fold(productSlug)
    }
  })
}

const DAY_MS = 86_400_000
const SURNAMES = ['やまだ', 'たなか', 'すずき', 'さとう', 'たかはし']

/** `count` reservations of `productSlug`, one a minute, the i-th named `<surname> <i>`. */
export function manyReservations(count: number, productSlug: string): Reservation[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `res_many-${String(i).padStart(5, '0')}`,
    name: `${SURNAMES[i % SURNAMES.length]} ${i}`,
    email: `many${i}@example.jp`,
    productSlug,
    status: 'pending',
    notes: '',
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    respondedAt: null,
  }))
}
