import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { LEGACY_LISTING_PREFIXES } from './blobLayout.js'

/**
 * Deletes what is left of the listing cache before issue 21 (blobLayout.ts
 * LEGACY_LISTING_PREFIXES): the snapshots always (a few blobs, each holding personal data), then
 * journal entries a page at a time while `within()` says there is time; the number of blobs
 * deleted. A journal left over is deleted by the next call.
 */
export async function dropLegacyListing(
  store: Store,
  within: () => boolean = () => true,
): Promise<number> {
  let deleted = 0
  for (const prefix of [LEGACY_LISTING_PREFIXES.snapshots, LEGACY_LISTING_PREFIXES.journal]) {
    for await (const page of store.list({ prefix, paginate: true })) {
      if (prefix === LEGACY_LISTING_PREFIXES.journal && !within()) return deleted
      await mapWithConcurrency(page.blobs, 10, ({ key }) => store.delete(key))
      deleted += page.blobs.length
    }
  }
  return deleted
}
