import { createHash } from 'node:crypto'
import { endianness } from 'node:os'
import type { AsPlainObject } from 'minisearch'
import SearchableMap from 'minisearch/SearchableMap'
import type { PackedIndexParts } from '../../lib/search/index/packedIndex.js'
import type { StoredPage } from '../../lib/search/siteContentTypes.js'
import { isPlainText, notPlainKeys } from '../../lib/search/textNormalization.js'
import { mixedSpellingPairs } from '../../lib/search/terms/textSpellings.js'
import {
  alignUp,
  EAGER_SECTIONS,
  LAZY_SECTIONS,
  MAGIC,
  PREFIX,
  type Header,
  type SectionName,
} from '../../lib/search/index/searchDataReader.js'
import type { TermTreeArrays } from '../../lib/search/index/termTree.js'
import { encodeReadings, type WordReading } from '../../lib/search/index/readingTable.js'
import { encodeAlias, encodePostings } from '../../lib/search/index/postingsCoding.js'
import {
  TEXT_HEAD_CHARS,
  TEXT_SHARD_PAGES,
  type TextShard,
} from '../../lib/search/index/searchText.js'

/*
 * The build's half of the search data file: packs a built MiniSearch index and the pages into
 * the layout index/searchDataReader.ts reads. Only scripts import it, so the search function's bundle
 * carries neither MiniSearch nor this code.
 */

/** Packs MiniSearch's `toJSON()` of an index. */
export function packIndex(index: AsPlainObject): PackedIndexParts {
  if ((index.dirtCount ?? 0) > 0) {
    // why: MiniSearch skips a discarded document's postings and recounts at search time;
    // packed postings are final
    throw new Error(`packIndex needs an index without discarded documents; vacuum() it first`)
  }
  // why: stored fields are kept beside the index (storeFields is empty), not in it
  const { index: entries, documentIds, fieldLength, storedFields, ...common } = index
  void storedFields
  const slots = common.nextId
  const fieldCount = Object.keys(common.fieldIds).length
  const termPostingsStart = new Uint32Array(entries.length + 1)
  const postings: number[] = []
  entries.forEach(([, fields], t) => {
    // why: Object.keys order (numeric keys ascending) is the order loadJS would insert them in
    for (const fieldId of Object.keys(fields)) {
      const frequencies = fields[fieldId]! as Record<string, number>
      const shortIds = Object.keys(frequencies)
      postings.push(Number(fieldId), shortIds.length)
      for (const shortId of shortIds) postings.push(Number(shortId))
      for (const shortId of shortIds) postings.push(frequencies[shortId]!)
    }
    termPostingsStart[t + 1] = postings.length
  })
  const packedPostings = Uint32Array.from(postings)
  const ids = Array.from({ length: slots }, (_, shortId) =>
    Object.hasOwn(documentIds, shortId) ? String(documentIds[shortId]) : null,
  )
  return {
    common,
    documentId: (shortId) => ids[shortId] ?? null,
    fieldLengths: packFieldLengths(fieldLength, slots, fieldCount),
    tree: packTermTree(entries.map(([term]) => term)),
    termPostingsStart,
    postings: (from, to) => packedPostings.subarray(from, to),
  }
}

/** MiniSearch's `fieldLength` ({shortId: [length per field]}) as one array, field by field. */
function packFieldLengths(
  fieldLength: AsPlainObject['fieldLength'],
  slots: number,
  fieldCount: number,
): Float64Array {
  // why: a missing length makes MiniSearch's arithmetic NaN; keep it so
  const packed = new Float64Array(fieldCount * slots).fill(Number.NaN)
  for (const [shortId, lengths] of Object.entries(fieldLength)) {
    for (let fieldId = 0; fieldId < fieldCount; fieldId++) {
      packed[fieldId * slots + Number(shortId)] = lengths[fieldId] ?? Number.NaN
    }
  }
  return packed
}

type RadixNode = Map<string, RadixNode | number>

/**
 * The tree MiniSearch builds when it loads `terms` in this order (as `loadJSON` does): the root,
 * then the subtree below each of its entries in turn, each breadth first (termTree.ts).
 */
function packTermTree(terms: readonly string[]): TermTreeArrays {
  const map = new SearchableMap<number>()
  terms.forEach((term, number) => map.set(term, number))
  const root = (map as unknown as { _tree: RadixNode })._tree
  const nodes: RadixNode[] = [root]
  for (const child of root.values()) {
    if (typeof child === 'number') continue
    for (let n = nodes.push(child) - 1; n < nodes.length; n++) {
      for (const grandchild of nodes[n]!.values()) {
        if (typeof grandchild !== 'number') nodes.push(grandchild)
      }
    }
  }
  const nodeNumber = new Map(nodes.map((node, n) => [node, n]))
  const nodeEntryStart = [0]
  const entryLabelStart = [0]
  const entryTarget: number[] = []
  const labels: string[] = []
  let labelLength = 0
  for (const node of nodes) {
    for (const [label, child] of node) {
      entryTarget.push(typeof child === 'number' ? child : nodeNumber.get(child)!)
      labels.push(label)
      labelLength += label.length
      entryLabelStart.push(labelLength)
    }
    nodeEntryStart.push(entryTarget.length)
  }
  const text = labels.join('')
  const codes = new Uint16Array(text.length)
  for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i)
  return {
    nodeEntryStart: Uint32Array.from(nodeEntryStart),
    entryLabelStart: Uint32Array.from(entryLabelStart),
    entryTarget: Uint32Array.from(entryTarget),
    labels: codes,
  }
}

// why: a text with more characters that are not plain (Korean, rare kanji) is looked at as before;
// a blog's page holds a few (① ℃ é), a few bytes each in the data file
const MAX_NOT_PLAIN_KEYS = 32
// why: below this the scan to a first match is short; a long real page writes a few pairs two
// ways (もっと, セット), more keep the scan
const SPELLINGS_MIN_TEXT = 2_000
const MAX_MIXED_PAIRS = 32

/**
 * The data file's bytes, and the text shards of the pages longer than `headChars` (at least
 * TEXT_HEAD_CHARS; default `Infinity`: every text whole in the file, no shards). `readings`: the
 * readings of the site's kanji words (build/search/wordReadings.ts; default none).
 */
export function encodeSiteSearchData(
  formatVersion: string,
  index: PackedIndexParts,
  pages: readonly StoredPage[],
  headChars = Infinity,
  readings: readonly WordReading[] = [],
): { bytes: Buffer; dataId: string; eagerBytes: number; textShards: Map<number, TextShard> } {
  if (!(headChars >= TEXT_HEAD_CHARS)) {
    // why: an excerpt from the start (up to 500 characters) is taken from the head alone
    throw new Error(`A text head of ${headChars} characters is shorter than ${TEXT_HEAD_CHARS}`)
  }
  const { fieldLengths, tree } = index
  const { termPostingsStart, postings } = encodeAllPostings(index)
  const documentIds = Array.from({ length: index.common.nextId }, (_, shortId) =>
    index.documentId(shortId),
  )
  const { pageIdStarts, pageIds } = encodePageIds(documentIds)
  const shortIdOf = new Map(documentIds.map((id, shortId) => [id, shortId]))
  const pageLocations = new Uint32Array(documentIds.length * 2)
  const pageBlobs: Buffer[] = []
  const textShards = new Map<number, TextShard>()
  let pagesLength = 0
  for (const page of pages) {
    const shortId = shortIdOf.get(page.id)
    if (shortId === undefined) throw new Error(`Page ${page.id} is not in the index`)
    const stored: StoredPage = { ...page, textIsPlain: isPlainText(page.text) }
    const notPlain = stored.textIsPlain ? null : notPlainKeys(page.text, MAX_NOT_PLAIN_KEYS)
    if (notPlain !== null) stored.textNotPlain = notPlain
    const spellings =
      page.text.length >= SPELLINGS_MIN_TEXT ? mixedSpellingPairs(page.text, MAX_MIXED_PAIRS) : null
    if (spellings !== null) stored.textSpellings = spellings
    const cut = headCut(page.text, headChars)
    if (cut < page.text.length) {
      const textShard = Math.floor(shortId / TEXT_SHARD_PAGES)
      let shard = textShards.get(textShard)
      if (!shard) textShards.set(textShard, (shard = {}))
      shard[page.id] = page.text.slice(cut)
      Object.assign(stored, { text: page.text.slice(0, cut), textShard })
    }
    const blob = encodePage(stored)
    pageLocations.set([pagesLength, blob.length], shortId * 2)
    pageBlobs.push(blob)
    pagesLength += blob.length
  }
  const view = (array: Uint16Array | Uint32Array | Float64Array): Buffer =>
    Buffer.from(array.buffer, array.byteOffset, array.byteLength)
  const contents: Record<SectionName, Buffer> = {
    nodeEntryStart: view(tree.nodeEntryStart),
    entryLabelStart: view(tree.entryLabelStart),
    entryTarget: view(tree.entryTarget),
    labels: view(tree.labels),
    treeGroups: view(treeGroups(tree)),
    termPostingsStart: view(termPostingsStart),
    fieldLengths: view(fieldLengths),
    pageLocations: view(pageLocations),
    pageIdStarts: view(pageIdStarts),
    postings,
    pages: Buffer.concat(pageBlobs),
    pageIds,
    readings: encodeReadings(readings),
  }
  const sections = {} as Header['sections']
  const body: Buffer[] = []
  let bodyLength = 0
  for (const name of [...EAGER_SECTIONS, ...LAZY_SECTIONS]) {
    const section = contents[name]
    sections[name] = [bodyLength, section.length]
    const padded = alignUp(section.length)
    body.push(section, Buffer.alloc(padded - section.length))
    bodyLength += padded
  }
  const header: Omit<Header, 'dataId'> = {
    formatVersion,
    byteOrder: endianness(),
    common: index.common,
    sections,
  }
  const digest = createHash('sha256').update(JSON.stringify(header))
  for (const part of body) digest.update(part)
  // why: the shards are published under this id; other text is another deploy's
  for (const [n, shard] of textShards) digest.update(`${n}:${JSON.stringify(shard)}`)
  const dataId = digest.digest('hex').slice(0, 16)
  const headerBytes = Buffer.from(JSON.stringify({ ...header, dataId }))
  const prefix = Buffer.alloc(alignUp(PREFIX + headerBytes.length))
  prefix.write(MAGIC, 0, 'latin1')
  prefix.writeUInt32LE(headerBytes.length, MAGIC.length)
  headerBytes.copy(prefix, PREFIX)
  const lastEager = sections[EAGER_SECTIONS[EAGER_SECTIONS.length - 1]!]
  return {
    bytes: Buffer.concat([prefix, ...body]),
    dataId,
    eagerBytes: prefix.length + lastEager[0] + lastEager[1],
    textShards,
  }
}

/**
 * Where each subtree below the root begins (packTermTree's layout), as rows of first node, first
 * entry and first label character: the root's row (zeros), one per subtree, then the totals.
 */
function treeGroups(tree: TermTreeArrays): Uint32Array {
  const rows = [0, 0, 0]
  for (let e = 0; e < tree.nodeEntryStart[1]!; e++) {
    if (tree.entryLabelStart[e + 1] === tree.entryLabelStart[e]) continue
    const node = tree.entryTarget[e]!
    const entry = tree.nodeEntryStart[node]!
    // why: the reader takes each subtree to run up to the next one's first node
    if (node <= rows[rows.length - 3]!) throw new Error('The term tree is not laid out by subtree')
    rows.push(node, entry, tree.entryLabelStart[entry]!)
  }
  rows.push(tree.nodeEntryStart.length - 1, tree.entryTarget.length, tree.labels.length)
  return Uint32Array.from(rows)
}

/**
 * A page as the data file stores it (searchDataReader.ts): the byte length of its fields, its
 * fields as JSON with an empty `text` in its place, then its text, all UTF-16LE.
 * why: the text apart is decoded straight into its string; inside the JSON it was decoded into
 * the JSON's string first and copied again by `JSON.parse`, a large part of reading a page, and the
 * garbage of an answer's pages took a young-generation collection on a cold start
 */
function encodePage(page: StoredPage): Buffer {
  const fields = Buffer.from(JSON.stringify({ ...page, text: '' }), 'utf16le')
  const fieldsLength = Buffer.alloc(4)
  fieldsLength.writeUInt32LE(fields.length)
  return Buffer.concat([fieldsLength, fields, Buffer.from(page.text, 'utf16le')])
}

/**
 * Every page id one after another (UTF-16LE) and where each starts (in characters; one more
 * start for the end); a slot without a document has an empty id.
 */
function encodePageIds(documentIds: ReadonlyArray<string | null>): {
  pageIdStarts: Uint32Array
  pageIds: Buffer
} {
  const pageIdStarts = new Uint32Array(documentIds.length + 1)
  let length = 0
  documentIds.forEach((id, shortId) => {
    if (id === '') throw new Error(`Page ${shortId} has an empty id`)
    length += id?.length ?? 0
    pageIdStarts[shortId + 1] = length
  })
  return { pageIdStarts, pageIds: Buffer.from(documentIds.join(''), 'utf16le') }
}

/** Where a text's head ends: `headChars`, or one later not to split a surrogate pair. */
function headCut(text: string, headChars: number): number {
  if (text.length <= headChars) return text.length
  const code = text.charCodeAt(headChars)
  return code >= 0xdc00 && code <= 0xdfff ? headChars + 1 : headChars
}

/**
 * Every term's postings encoded (postingsCoding.ts; a term with the same postings as an earlier
 * one as an alias of it), and where each term's bytes start.
 */
function encodeAllPostings(index: PackedIndexParts): {
  termPostingsStart: Uint32Array
  postings: Buffer
} {
  const starts = index.termPostingsStart
  const termPostingsStart = new Uint32Array(starts.length)
  const bytes: number[] = []
  const chunks: Buffer[] = []
  const firstWith = new Map<string, number>()
  let length = 0
  for (let t = 0; t + 1 < starts.length; t++) {
    const own: number[] = []
    encodePostings(index.postings(starts[t]!, starts[t + 1]!), own)
    // why: longer than an alias, the same postings as an earlier term are written once
    const key =
      own.length > 8 ? createHash('sha256').update(Uint8Array.from(own)).digest('base64') : null
    const original = key === null ? undefined : firstWith.get(key)
    if (original !== undefined) encodeAlias(original, bytes)
    else {
      if (key !== null) firstWith.set(key, t)
      for (const byte of own) bytes.push(byte)
    }
    // why: one number[] of the whole section would hold ~20 million numbers at 20,000 pages
    if (bytes.length > 1 << 20) {
      chunks.push(Buffer.from(bytes))
      length += bytes.length
      bytes.length = 0
    }
    termPostingsStart[t + 1] = length + bytes.length
  }
  chunks.push(Buffer.from(bytes))
  return { termPostingsStart, postings: Buffer.concat(chunks) }
}
