import type { Store } from '@netlify/blobs'

/**
 * How a collection's records split into index partitions: each partition is one key prefix, so
 * it can be rebuilt and verified from a key listing of that prefix alone.
 */
export interface Partitioning {
  /** The partition of a record key of the collection, or null when the key is none of its. */
  of(key: string): string | null
  /** The key prefix of every record of `partition`. */
  prefix(partition: string): string
  /** Every partition that may hold records (one key listing, or a fixed list). */
  discover(store: Store): Promise<string[]>
}

/** One partition per first key segment after `prefix` (the product slug of `reservations/{slug}/{id}`). */
export function folderPartitions(prefix: string): Partitioning {
  return {
    of: (key) => {
      if (!key.startsWith(prefix)) return null
      const [folder, ...rest] = key.slice(prefix.length).split('/')
      return folder && rest.length > 0 ? folder : null
    },
    prefix: (partition) => `${prefix}${partition}/`,
    discover: async (store) => {
      const folders: string[] = []
      for await (const page of store.list({ prefix, directories: true, paginate: true })) {
        for (const directory of page.directories) folders.push(directory.slice(prefix.length))
      }
      return folders
    },
  }
}

const HEX = [...'0123456789abcdef']

/**
 * Sixteen partitions by the first hex digit after `prefix` (keys `consents/{sha256}/…`): an
 * address's records stay in one partition, and no partition grows past 1/16 of the collection.
 */
export function hexPartitions(prefix: string): Partitioning {
  return {
    of: (key) => {
      const digit = key.startsWith(prefix) ? key.charAt(prefix.length) : ''
      return HEX.includes(digit) ? digit : null
    },
    prefix: (partition) => `${prefix}${partition}`,
    discover: () => Promise.resolve(HEX),
  }
}

const OTHER = 'other'

/**
 * Seventeen partitions of keys `{prefix}{idStart}{hex…}` (history: `notif-history:notif_{uuid}`):
 * one per first hex digit of the id, and `other` for any other key of the collection (an id not
 * made by the service), whose prefix is the collection's (its listing is filtered by `of`). No
 * partition grows past about 1/16 of the collection.
 */
export function idHexPartitions(prefix: string, idStart: string): Partitioning {
  const start = `${prefix}${idStart}`
  return {
    of: (key) => {
      if (!key.startsWith(prefix)) return null
      const digit = key.startsWith(start) ? key.charAt(start.length) : ''
      return HEX.includes(digit) ? digit : OTHER
    },
    prefix: (partition) => (partition === OTHER ? prefix : `${start}${partition}`),
    discover: () => Promise.resolve([...HEX, OTHER]),
  }
}

/** The whole collection as one partition named `all` (small collections: stock, suppressions). */
export function singlePartition(prefix: string): Partitioning {
  return {
    of: (key) => (key.startsWith(prefix) ? 'all' : null),
    prefix: () => prefix,
    discover: () => Promise.resolve(['all']),
  }
}
