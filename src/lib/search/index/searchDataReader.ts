import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { endianness } from 'node:os'
import type { IndexCommon, PackedIndexParts } from './packedIndex.js'
import type { TermTreeArrays } from './termTree.js'
import type { StoredPage } from '../siteContentTypes.js'
import { aliasOf, decodePostings } from './postingsCoding.js'
import { decodeReadings, type WordReading } from './readingTable.js'

/**
 * The search data file (`src/generated/site-search.bin`): the packed index and the pages.
 *
 * Layout: `SHOPSRCH`, the header's length (u32 LE), the header (JSON), then from the next
 * multiple of 8 the sections the header locates, each starting at a multiple of 8: the term
 * tree (u32 arrays in the machine's byte order, checked; labels UTF-16LE), where each term's
 * postings start (byte offsets), the field lengths (f64), where each page and its id lie, then
 * the postings (varints, postingsCoding.ts; decoded once per term and instance), the pages
 * (each the byte length of its fields as u32 LE, its fields as JSON with an empty `text`, then
 * its text, both UTF-16LE: it decodes several times faster than UTF-8 for Japanese text) and
 * the page ids (UTF-16LE, read one by one as a search's hits name them) and the readings of the
 * site's kanji words (readingTable.ts, read at the first query looking one up).
 *
 * why: V8 reads every byte of an imported module, so an index inside a module made a cold start
 * grow with the site. From this file a cold start reads the sections before `postings` (a small
 * part of it) and uses them where they lie; a term's postings and a page are read when a query
 * reaches them.
 */
// why exported: the layout is shared with the writer, build/searchDataWriter.ts
export const MAGIC = 'SHOPSRCH'
export const PREFIX = MAGIC.length + 4
const ALIGN = 8
/** Read at load, in this order; `LAZY_SECTIONS` follow and are read by range. */
export const EAGER_SECTIONS = [
  'treeGroups',
  'termPostingsStart',
  'fieldLengths',
  'pageLocations',
  'pageIdStarts',
] as const
export const LAZY_SECTIONS = [
  'nodeEntryStart',
  'entryLabelStart',
  'entryTarget',
  'labels',
  'postings',
  'pages',
  'pageIds',
  'readings',
] as const
export type SectionName = (typeof EAGER_SECTIONS)[number] | (typeof LAZY_SECTIONS)[number]

export interface Header {
  formatVersion: string
  /** Digest of everything else; the generated module names it to catch a stale data file. */
  dataId: string
  byteOrder: string
  common: IndexCommon
  /** Per section, [offset from the first section, byte length]. */
  sections: Record<SectionName, [number, number]>
}

export interface SiteSearchData {
  formatVersion: string
  dataId: string
  index: PackedIndexParts
  /** The stored fields of a page, or null for an id the data does not hold. */
  page(id: string): StoredPage | null
  /** The readings of the site's kanji words (readingTable.ts), read when first asked for. */
  readings(): WordReading[]
  /**
   * The folder beside the data file holding its text shards (`search-text/`), or null where
   * they are read from elsewhere (the deployed function: the site's origin).
   */
  textFolder: string | null
  /** Closes the file it reads from (nothing after it may be read). */
  close(): void
}

/** Where the bytes come from: the file read by range (fileSource), or another source of them. */
export interface ByteSource {
  /** The number of bytes. */
  size: number
  /** `length` bytes from `offset` (fewer at the end), at an 8-byte aligned start in memory. */
  read(offset: number, length: number): Uint8Array
  /** Fills `target` with the bytes from `offset` (fewer at the end); how many it read. */
  readInto(offset: number, target: Uint8Array): number
  close(): void
}

/** The bytes are not a search data file of this code (damaged, or written by other code). */
export class InvalidSearchDataError extends Error {
  constructor(problem: string) {
    super(`The search data file ${problem}. Rebuild it with \`npm run build\`.`)
    this.name = 'InvalidSearchDataError'
  }
}

/**
 * Reads the header and the sections a search always needs from `source`; postings and pages
 * are read from it later, when a query reaches them. Checks the file's size and structure (a
 * cut or foreign file fails here, not in some later query); the arrays' contents are trusted,
 * as our own build wrote them.
 */
export function decodeSiteSearchData(source: ByteSource): SiteSearchData {
  const start = source.read(0, PREFIX)
  if (start.length < PREFIX || latin1(start, 0, MAGIC.length) !== MAGIC) {
    throw new InvalidSearchDataError('does not start with its signature')
  }
  const headerLength = Buffer.from(start.buffer, start.byteOffset).readUInt32LE(MAGIC.length)
  const header = parseHeader(readExactly(source, PREFIX, headerLength))
  if (header.byteOrder !== endianness()) {
    throw new InvalidSearchDataError(`was written on a ${header.byteOrder} machine`)
  }
  const bodyStart = alignUp(PREFIX + headerLength)
  const bodyLength = checkSections(header.sections)
  if (source.size !== bodyStart + bodyLength) {
    throw new InvalidSearchDataError(
      source.size < bodyStart + bodyLength ? 'is cut short' : 'is too long',
    )
  }
  const lastEager = header.sections[EAGER_SECTIONS[EAGER_SECTIONS.length - 1]]
  const eager = readExactly(source, bodyStart, lastEager[0] + lastEager[1])
  const eagerBytes = (name: SectionName): Uint8Array => {
    const [offset, length] = header.sections[name]
    return eager.subarray(offset, offset + length)
  }
  const lazy = (name: SectionName, from: number, length: number): Uint8Array => {
    const [offset, sectionLength] = header.sections[name]
    if (from + length > sectionLength) throw new InvalidSearchDataError(`has a bad ${name} range`)
    return readExactly(source, bodyStart + offset + from, length)
  }
  const lazyInto = (name: SectionName, from: number, target: Uint8Array): void => {
    const [offset, sectionLength] = header.sections[name]
    if (from + target.length > sectionLength) {
      throw new InvalidSearchDataError(`has a bad ${name} range`)
    }
    if (source.readInto(bodyStart + offset + from, target) !== target.length) {
      throw new InvalidSearchDataError('is cut short')
    }
  }
  const pageLocations = u32(eagerBytes('pageLocations'))
  const termPostingsStart = u32(eagerBytes('termPostingsStart'))
  // why: by byte offset, so terms sharing postings (aliases) decode them once
  const decodedAt = new Map<number, Uint32Array>()
  const pageIdStarts = u32(eagerBytes('pageIdStarts'))
  // why: by blocks, as the postings: a search's hits name their ids one by one (a read each)
  const pageIdBytes = blockReader((from, length) => lazy('pageIds', from, length), {
    sectionLength: header.sections.pageIds[1],
  })
  const pages = pageIdsReader(pageIdStarts, pageIdBytes)
  const postingsBytes = blockReader((from, length) => lazy('postings', from, length), {
    sectionLength: header.sections.postings[1],
  })
  const index: PackedIndexParts = {
    common: header.common,
    documentId: pages.documentId,
    fieldLengths: f64(eagerBytes('fieldLengths')),
    tree: termTreeReader(header.sections, u32(eagerBytes('treeGroups')), lazyInto),
    termPostingsStart,
    postings(from, to) {
      let decoded = decodedAt.get(from)
      if (decoded) return decoded
      const bytes = postingsBytes(from, to - from)
      const alias = aliasOf(bytes)
      if (alias === -1) {
        decoded = decodePostings(bytes) ?? undefined
      } else {
        // why: an alias names an earlier term holding the postings themselves
        const [start, end] = [termPostingsStart[alias], termPostingsStart[alias + 1]]
        if (start === undefined || end === undefined || !(start < from)) {
          throw new InvalidSearchDataError('has damaged postings')
        }
        decoded = decodedAt.get(start)
        if (!decoded) {
          const original = postingsBytes(start, end - start)
          decoded = (aliasOf(original) === -1 && decodePostings(original)) || undefined
          if (decoded) decodedAt.set(start, decoded)
        }
      }
      if (!decoded) throw new InvalidSearchDataError('has damaged postings')
      decodedAt.set(from, decoded)
      return decoded
    },
  }
  checkIndex(index, header.sections, { pageLocations, pageIdStarts })
  let pageBytes = Buffer.alloc(0)
  return {
    formatVersion: header.formatVersion,
    dataId: header.dataId,
    index,
    page(id) {
      const shortId = pages.shortIdOf(id)
      const length = shortId === undefined ? 0 : pageLocations[shortId * 2 + 1]!
      if (!length) return null
      // why: one buffer for every page read, as its bytes are decoded into strings at once (a
      // fresh zero-filled buffer per page added to reading an answer's pages)
      if (pageBytes.length < length)
        pageBytes = Buffer.allocUnsafeSlow(Math.max(length, 2 * pageBytes.length))
      const buffer = pageBytes.subarray(0, length)
      lazyInto('pages', pageLocations[shortId! * 2]!, buffer)
      const textStart = length >= 4 ? 4 + buffer.readUInt32LE(0) : Number.NaN
      let page: StoredPage | null = null
      try {
        if (textStart <= length) page = JSON.parse(buffer.toString('utf16le', 4, textStart))
      } catch {
        // reported below
      }
      if (typeof page?.text !== 'string')
        throw new InvalidSearchDataError(`has a damaged page ${id}`)
      // why: set in the place the fields keep for it, so the page's keys keep the writer's order
      page.text = buffer.toString('utf16le', textStart)
      return page
    },
    readings() {
      const readings = decodeReadings(lazy('readings', 0, header.sections.readings[1]))
      if (!readings) throw new InvalidSearchDataError('has damaged readings')
      return readings
    },
    textFolder: null,
    close: () => source.close(),
  }
}

// why: a query's lists mostly lie near each other (a Latin word's hundreds of fuzzy and prefix
// lists in a few dozen blocks), and a read per list was a large part of a cold start's answer
const POSTINGS_BLOCK = 16 * 1024
// why: the blocks of the last few queries (1 MB); decoded lists are kept per term anyway
const KEPT_BLOCKS = 64

/**
 * Reads `length` bytes at `from` of a section by whole blocks of `POSTINGS_BLOCK` bytes, keeping
 * the last `KEPT_BLOCKS`; a range longer than a block or crossing one's end is read as it is.
 */
function blockReader(
  read: (from: number, length: number) => Uint8Array,
  { sectionLength }: { sectionLength: number },
): (from: number, length: number) => Uint8Array {
  const blocks = new Map<number, Uint8Array>()
  return (from, length) => {
    const block = Math.floor(from / POSTINGS_BLOCK)
    const offset = from - block * POSTINGS_BLOCK
    if (offset + length > POSTINGS_BLOCK || from + length > sectionLength) {
      return read(from, length)
    }
    let bytes = blocks.get(block)
    if (!bytes) {
      if (blocks.size >= KEPT_BLOCKS) blocks.delete(blocks.keys().next().value!)
      const start = block * POSTINGS_BLOCK
      bytes = read(start, Math.min(POSTINGS_BLOCK, sectionLength - start))
      blocks.set(block, bytes)
    }
    return bytes.subarray(offset, offset + length)
  }
}

/**
 * Page ids by short id, read as they are asked for, and short ids by page id.
 * why: the ids were an array in the header and a Map of every id was built at the first page
 * read, which with its garbage collection weighed on a large site's cold start. A page is looked
 * up by an id a search handed out (its hits), so those are known; any other id reads them all.
 */
function pageIdsReader(
  starts: Uint32Array,
  read: (from: number, length: number) => Uint8Array,
): { documentId(shortId: number): string | null; shortIdOf(id: string): number | undefined } {
  const slots = starts.length - 1
  const ids = new Map<number, string | null>()
  const shortIds = new Map<string, number>()
  let complete = false
  const documentId = (shortId: number): string | null => {
    let id = ids.get(shortId)
    if (id === undefined) {
      const [from, to] = [starts[shortId], starts[shortId + 1]]
      id =
        from === undefined || to === undefined || to === from
          ? null
          : utf16(read(from * 2, (to - from) * 2))
      ids.set(shortId, id)
      if (id !== null) shortIds.set(id, shortId)
    }
    return id
  }
  return {
    documentId,
    shortIdOf(id) {
      if (!complete && !shortIds.has(id)) {
        const all = utf16(read(0, starts[slots]! * 2))
        for (let shortId = 0; shortId < slots; shortId++) {
          const [from, to] = [starts[shortId]!, starts[shortId + 1]!]
          if (to > from) shortIds.set(all.slice(from, to), shortId)
        }
        complete = true
      }
      return shortIds.get(id)
    },
  }
}

/** A file read by range; it stays open until `close` (for the life of a function instance). */
export function fileSource(file: string): ByteSource {
  const fd = openSync(file, 'r')
  let size: number
  try {
    size = fstatSync(fd).size
  } catch (error) {
    closeSync(fd)
    throw error
  }
  return {
    size,
    read(offset, length) {
      const bytes = new Uint8Array(Math.max(0, Math.min(length, size - offset)))
      return bytes.subarray(0, this.readInto(offset, bytes))
    },
    readInto(offset, target) {
      let done = 0
      while (done < target.length) {
        const count = readSync(fd, target, done, target.length - done, offset + done)
        if (count === 0) break
        done += count
      }
      return done
    },
    close: () => closeSync(fd),
  }
}

/**
 * The term tree's arrays, each subtree below the root read into them when a walk first enters
 * it (termTree.ts, `loadSubtree`); the root's entries are read at once. `groups`: rows of first
 * node, first entry and first label character of the root, of each subtree, then the totals.
 */
function termTreeReader(
  sections: Header['sections'],
  groups: Uint32Array,
  readInto: (name: SectionName, from: number, target: Uint8Array) => void,
): TermTreeArrays {
  const rows = groups.length / 3
  const totals = groups.subarray(groups.length - 3)
  const [nodes, entries, chars] = [totals[0]!, totals[1]!, totals[2]!]
  if (
    !(rows >= 2 && Number.isInteger(rows)) ||
    sections.nodeEntryStart[1] !== (nodes + 1) * 4 ||
    sections.entryLabelStart[1] !== (entries + 1) * 4 ||
    sections.entryTarget[1] !== entries * 4 ||
    sections.labels[1] !== chars * 2
  ) {
    throw new InvalidSearchDataError('has a damaged term tree')
  }
  // why: zero-filled, so the memory of a subtree no query enters is never touched
  const arrays = {
    nodeEntryStart: new Uint32Array(nodes + 1),
    entryLabelStart: new Uint32Array(entries + 1),
    entryTarget: new Uint32Array(entries),
    labels: new Uint16Array(chars),
  }
  const fill = (name: keyof typeof arrays, from: number, to: number): void => {
    const array = arrays[name]
    const size = array.BYTES_PER_ELEMENT
    readInto(name, from * size, new Uint8Array(array.buffer, from * size, (to - from) * size))
  }
  const loaded = new Uint8Array(rows)
  /** Reads the rows `from` to `to` (not included) in one read per array. */
  const load = (from: number, to: number): void => {
    const [node, entry, char] = groups.subarray(from * 3, from * 3 + 3)
    const [lastNode, lastEntry, lastChar] = groups.subarray(to * 3, to * 3 + 3)
    fill('nodeEntryStart', node!, lastNode! + 1)
    fill('entryLabelStart', entry!, lastEntry! + 1)
    fill('entryTarget', entry!, lastEntry!)
    fill('labels', char!, lastChar!)
    const { nodeEntryStart, entryLabelStart } = arrays
    for (let row = from; row <= to; row++) {
      const [rowNode, rowEntry, rowChar] = groups.subarray(row * 3, row * 3 + 3)
      if (
        (row < to && !(rowNode! < groups[row * 3 + 3]!)) ||
        nodeEntryStart[rowNode!] !== rowEntry ||
        entryLabelStart[rowEntry!] !== rowChar
      ) {
        throw new InvalidSearchDataError('has a damaged term tree')
      }
      if (row < to) loaded[row] = 1
    }
  }
  load(0, 1)
  const rowOf = new Map<number, number>()
  for (let row = 1; row + 1 < rows; row++) rowOf.set(groups[row * 3]!, row)
  return {
    ...arrays,
    loadSubtree(e) {
      const { entryLabelStart, entryTarget } = arrays
      // why: an entry with an empty label is a term's leaf, no subtree
      if (entryLabelStart[e + 1] === entryLabelStart[e]) return
      const row = rowOf.get(entryTarget[e]!)
      if (row === undefined) throw new InvalidSearchDataError('has a damaged term tree')
      if (!loaded[row]) load(row, row + 1)
    },
    loadWhole() {
      // why: one read per array, the subtrees read before read again (the same bytes): a Latin
      // word's parts (`toko`, `name`) read their subtrees first, and a read per array for each
      // run between them cost more than reading them twice
      if (loaded.indexOf(0, 1) + 1 < rows) load(1, rows - 1)
    },
  }
}

/** Bytes per element of each section: a section's length must be a multiple of it. */
const SECTION_UNITS: Record<SectionName, number> = {
  treeGroups: 12,
  nodeEntryStart: 4,
  entryLabelStart: 4,
  entryTarget: 4,
  labels: 2,
  termPostingsStart: 4,
  fieldLengths: 8,
  pageLocations: 4,
  pageIdStarts: 4,
  postings: 1,
  pages: 1,
  pageIds: 2,
  readings: 1,
}

function parseHeader(bytes: Uint8Array): Header {
  let header: Partial<Header> | null = null
  try {
    header = JSON.parse(utf8(bytes)) as Partial<Header>
  } catch {
    // reported below
  }
  const common = header?.common
  if (
    typeof header?.formatVersion !== 'string' ||
    typeof header.dataId !== 'string' ||
    typeof header.byteOrder !== 'string' ||
    typeof header.sections !== 'object' ||
    header.sections === null ||
    typeof common?.nextId !== 'number' ||
    typeof common.documentCount !== 'number' ||
    typeof common.fieldIds !== 'object' ||
    !Array.isArray(common.averageFieldLength)
  ) {
    throw new InvalidSearchDataError('has a damaged header')
  }
  return header as Header
}

/** Checks the sections lie one after another as the writer puts them; their total length. */
function checkSections(sections: Header['sections']): number {
  let expected = 0
  for (const name of [...EAGER_SECTIONS, ...LAZY_SECTIONS]) {
    const [offset, length] = sections[name] ?? []
    if (offset !== expected || !Number.isInteger(length) || length! % SECTION_UNITS[name] !== 0) {
      throw new InvalidSearchDataError(`has a damaged ${name} section`)
    }
    expected = alignUp(offset + length!)
  }
  return expected
}

/** Checks the arrays agree in length with each other and with the header. */
function checkIndex(
  index: PackedIndexParts,
  sections: Header['sections'],
  { pageLocations, pageIdStarts }: { pageLocations: Uint32Array; pageIdStarts: Uint32Array },
): void {
  const { tree, termPostingsStart, fieldLengths, common } = index
  const slots = common.nextId
  const consistent =
    tree.nodeEntryStart.length > 1 &&
    termPostingsStart.length > 0 &&
    termPostingsStart[termPostingsStart.length - 1] === sections.postings[1] &&
    fieldLengths.length === Object.keys(common.fieldIds).length * slots &&
    pageLocations.length === slots * 2 &&
    pageIdStarts.length === slots + 1 &&
    pageIdStarts[slots]! * 2 === sections.pageIds[1]
  if (!consistent) throw new InvalidSearchDataError('has sections that do not fit together')
}

function readExactly(source: ByteSource, offset: number, length: number): Uint8Array {
  const bytes = source.read(offset, length)
  if (bytes.length !== length) throw new InvalidSearchDataError('is cut short')
  return bytes
}

function u32(bytes: Uint8Array): Uint32Array {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes)
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4)
}

function f64(bytes: Uint8Array): Float64Array {
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes)
  return new Float64Array(aligned.buffer, aligned.byteOffset, aligned.length / 8)
}

const latin1 = (bytes: Uint8Array, from: number, to: number): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1', from, to)
const utf8 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')
const utf16 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf16le')
export const alignUp = (length: number): number => Math.ceil(length / ALIGN) * ALIGN
