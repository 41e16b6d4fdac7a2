import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { LEGACY_LISTING_PREFIXES } from './blobLayout.js'

/**
 * Deletes what older deploys left of their listings (blobLayout.ts LEGACY_LISTING_PREFIXES): the
 * blobs copying records always (a few), then those naming records a page at a time while
 * `within()` says there is time; the number of blobs deleted. What is left is deleted by the
 * next call.
 */
export async function dropLegacyListing(
  store: Store,
  within: () => boolean = () => true,
): Promise<number> {
  let deleted = 0
  const { copies, names } = LEGACY_LISTING_PREFIXES
  for (const prefix of [...copies, ...names]) {
    for await (const page of store.list({ prefix, paginate: true })) {
      if ((names as readonly string[]).includes(prefix) && !within()) return deleted
      await mapWithConcurrency(page.blobs, 10, ({ key }) => store.delete(key))
      deleted += page.blobs.length
    }
  }
  return deleted
}
