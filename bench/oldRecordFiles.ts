import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { mapWithConcurrency } from '../src/lib/concurrency.js'
import { rebuildIndexes } from '../src/lib/storage/listing/indexMaintenance.js'
import type { NotifySubscription, Reservation } from '../src/lib/storage/records.js'
import { openRepositories } from '../src/lib/storage/repositories.js'

/**
 * Writes `count` reservations and subscriptions as the local Blobs server's own files under
 * `root` (`entries/{site}/site:{store}`), as old data without indexes. Why files: 200,000 blobs
 * through HTTP take half an hour on this machine, as files seconds.
 */
export async function writeOldRecordFiles(
  root: string,
  count: number,
  records: (i: number) => [Reservation, NotifySubscription],
  onProgress: (done: number) => void = () => undefined,
): Promise<void> {
  const folders = new Map<string, Promise<unknown>>()
  const folder = (path: string) => {
    if (!folders.has(path)) folders.set(path, mkdir(path, { recursive: true }))
    return folders.get(path)
  }
  await mapWithConcurrency(
    Array.from({ length: count }, (_, i) => i),
    100,
    async (i) => {
      const [r, s] = records(i)
      for (const [collection, record] of [
        ['reservations', r],
        ['notify', s],
      ] as const) {
        const path = join(root, collection, record.productSlug)
        await folder(path)
        await writeFile(join(path, record.id), JSON.stringify(record))
      }
      if (i % 5000 === 0) onProgress(i)
    },
  )
  onProgress(count)
}

/**
 * Indexes old data as listing-rebuild-background does: runs of at most 12 minutes, each
 * continuing the last, until every index is complete.
 */
export async function indexOldRecords(context: {
  deploy: { context: string }
  waitUntil: (work: Promise<unknown>) => void
}): Promise<void> {
  const { store, indexes } = openRepositories(context)
  for (;;) {
    const outcome = await rebuildIndexes(store, indexes, {
      now: Date.now,
      deadline: Date.now() + 12 * 60_000,
      owner: 'bench',
    })
    if (outcome === 'complete') return
  }
}
