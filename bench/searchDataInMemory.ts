import {
  decodeSiteSearchData,
  type ByteSource,
  type SiteSearchData,
} from '../src/lib/search/index/searchDataReader.js'

/**
 * A search data file's bytes as the search reads them, from memory instead of a file (the
 * function reads its file by range, index/searchDataFile.ts): for benchmarks and tests, which
 * build the bytes themselves.
 */
export function searchDataInMemory(bytes: Uint8Array): SiteSearchData {
  return decodeSiteSearchData(bytesSource(bytes))
}

function bytesSource(bytes: Uint8Array): ByteSource {
  // why: typed array views need aligned starts (the data file's sections start at multiples
  // of 8); a pooled Buffer may not give one
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes)
  return {
    size: aligned.length,
    read: (offset, length) => aligned.subarray(offset, offset + length),
    readInto(offset, target) {
      const bytes = aligned.subarray(offset, offset + target.length)
      target.set(bytes)
      return bytes.length
    },
    close() {},
  }
}
