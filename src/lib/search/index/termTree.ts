/**
 * MiniSearch's radix tree of index terms as four flat arrays, read where they lie in the search
 * data file. Node 0 is the root; each node has a run of entries in the order of the tree's Maps.
 * The subtree below each of the root's entries is one run of nodes, entries and labels, so the
 * data file reads it when a query first enters it (`loadSubtree`).
 *
 * why: MiniSearch rebuilds its tree with one Map per node when an index loads, which for the
 * tens of thousands of Latin terms of a large site was most of a cold start. These arrays
 * are used as they are read, and `get`, `atPrefix` and `fuzzyGet` below walk them exactly as
 * MiniSearch 7's SearchableMap walks its Maps, so expansions come back in the same order.
 */
export interface TermTreeArrays {
  /** Node n's entries are n's run [nodeEntryStart[n], nodeEntryStart[n + 1]). */
  nodeEntryStart: Uint32Array
  /** Entry e's label is `labels` from entryLabelStart[e] to entryLabelStart[e + 1]; '' = leaf. */
  entryLabelStart: Uint32Array
  /** An entry's child node, or for a leaf the term's number (its position in the index JSON). */
  entryTarget: Uint32Array
  /** Every label, one after another (UTF-16 code units). */
  labels: Uint16Array
  /**
   * Called before a walk enters the subtree below the root's entry e; from then on the arrays
   * hold that subtree. Absent when they hold the whole tree.
   * why: on a large site the tree is megabytes, and a Japanese query needs only the subtree of
   * `~`, a small part of it (Japanese terms are encoded behind it, termEncoding.ts)
   */
  loadSubtree?: (rootEntry: number) => void
  /**
   * Makes the arrays hold the whole tree, where they do not.
   * why: a fuzzy walk enters nearly every subtree; one read each of the arrays, not four per
   * subtree, which were a large part of a Latin word's cold start
   */
  loadWhole?: () => void
}

/** What one `fuzzyGet` walk carries down the tree. */
interface FuzzyWalk<V> {
  /** The query's UTF-16 codes. */
  query: number[]
  maxDistance: number
  results: Map<string, [V, number]>
  /** Edit distances, `rows` rows of `n` (the query's length + 1), one row per character walked. */
  matrix: Uint8Array
  n: number
  rows: number
  /** The entries walked from the root to the current node. */
  path: Uint32Array
}

/**
 * The terms of an index with their values: exact, prefix and fuzzy look-ups, each giving what
 * MiniSearch 7's SearchableMap gives, in its order.
 */
export interface TermTree<V> {
  get(term: string): V | undefined
  atPrefix(prefix: string): Iterable<[string, V]>
  fuzzyGet(term: string, maxDistance: number): Map<string, [V, number]>
}

/** A read-only term tree over `TermTreeArrays`; `valueOf` gives a term's value by its number. */
export class PackedTermTree<V> implements TermTree<V> {
  readonly #nodes: Uint32Array
  readonly #labelStart: Uint32Array
  readonly #target: Uint32Array
  readonly #labels: Uint16Array
  readonly #loadSubtree: ((rootEntry: number) => void) | undefined
  readonly #loadWhole: (() => void) | undefined
  readonly #valueOf: (termNumber: number) => V

  constructor(arrays: TermTreeArrays, valueOf: (termNumber: number) => V) {
    this.#nodes = arrays.nodeEntryStart
    this.#labelStart = arrays.entryLabelStart
    this.#target = arrays.entryTarget
    this.#labels = arrays.labels
    this.#loadSubtree = arrays.loadSubtree
    this.#loadWhole = arrays.loadWhole
    this.#valueOf = valueOf
  }

  /** The value of exactly `term`, as SearchableMap `get`. */
  get(term: string): V | undefined {
    let node = 0
    let pos = 0
    while (pos < term.length) {
      const entry = this.#childMatching(node, term, pos)
      if (entry < 0) return undefined
      pos += this.#labelLength(entry)
      node = this.#child(node, entry)
    }
    for (let e = this.#nodes[node]!; e < this.#nodes[node + 1]!; e++) {
      if (this.#labelLength(e) === 0) return this.#valueOf(this.#target[e]!)
    }
    return undefined
  }

  /** Every term starting with `prefix` and its value, in SearchableMap `atPrefix` order. */
  atPrefix(prefix: string): Array<[string, V]> {
    const found: Array<[string, V]> = []
    let node = 0
    let pos = 0
    while (pos < prefix.length) {
      const entry = this.#childMatching(node, prefix, pos)
      if (entry < 0) {
        // why: the prefix ends inside an edge; MiniSearch takes the first edge it begins
        const rest = prefix.length - pos
        for (let e = this.#nodes[node]!; e < this.#nodes[node + 1]!; e++) {
          if (this.#labelLength(e) > 0 && this.#labelStartsWith(e, prefix, pos, rest)) {
            this.#collect(this.#child(node, e), prefix + this.#label(e).slice(rest), found)
            break
          }
        }
        return found
      }
      pos += this.#labelLength(entry)
      node = this.#child(node, entry)
    }
    this.#collect(node, prefix, found)
    return found
  }

  /** Terms within `maxDistance` edits of `query`, as SearchableMap `fuzzyGet` (same order). */
  fuzzyGet(query: string, maxDistance: number): Map<string, [V, number]> {
    const results = new Map<string, [V, number]>()
    const n = query.length + 1
    const m = n + maxDistance
    const matrix = new Uint8Array(m * n).fill(maxDistance + 1)
    for (let j = 0; j < n; ++j) matrix[j] = j
    for (let i = 1; i < m; ++i) matrix[i * n] = i
    const queryCodes = Array.from({ length: query.length }, (_, j) => query.charCodeAt(j))
    this.#loadWhole?.()
    // why: every label is one character or more, so a term within reach has at most m entries
    const walk: FuzzyWalk<V> = {
      query: queryCodes,
      maxDistance,
      results,
      matrix,
      n,
      rows: m,
      path: new Uint32Array(m + 1),
    }
    this.#fuzzy(0, walk, 1, 0)
    return results
  }

  /**
   * MiniSearch's `recurse` (fuzzySearch) over the entries of `node`, reached from the root
   * through the `depth` entries of `walk.path`.
   * why: the term of an entry is spelled from the path only where it is a result, not a prefix
   * string per entry walked (most of them lead nowhere); comparisons, not `Math.min` and
   * `Math.max` calls: a cold start runs this walk before V8 has compiled it
   */
  #fuzzy(node: number, walk: FuzzyWalk<V>, row: number, depth: number): void {
    const { query, maxDistance, matrix, n, rows, path } = walk
    const labelStart = this.#labelStart
    const labels = this.#labels
    const offset = row * n
    const end = this.#nodes[node + 1]!
    entries: for (let e = this.#nodes[node]!; e < end; e++) {
      const start = labelStart[e]!
      const length = labelStart[e + 1]! - start
      if (length === 0) {
        const distance = matrix[offset - 1]!
        if (distance <= maxDistance) {
          walk.results.set(this.#termOf(path, depth), [this.#valueOf(this.#target[e]!), distance])
        }
        continue
      }
      let i = row
      for (let pos = 0; pos < length; ++pos, ++i) {
        // why: rows past the matrix can never end within maxDistance (MiniSearch reads undefined
        // there and adds nothing below), so stopping here returns the same terms
        if (i >= rows) continue entries
        const char = labels[start + pos]!
        const thisRowOffset = n * i
        const prevRowOffset = thisRowOffset - n
        let minDistance = matrix[thisRowOffset]!
        const jmin = i - maxDistance - 1 > 0 ? i - maxDistance - 1 : 0
        const jmax = i + maxDistance < n - 1 ? i + maxDistance : n - 1
        // why: the cell on the left and the one above-left are the last step's, kept in locals
        // (one matrix read a cell, not three)
        let left = matrix[thisRowOffset + jmin]!
        let aboveLeft = matrix[prevRowOffset + jmin]!
        for (let j = jmin; j < jmax; ++j) {
          const above = matrix[prevRowOffset + j + 1]!
          let dist = char !== query[j] ? aboveLeft + 1 : aboveLeft
          if (above + 1 < dist) dist = above + 1
          if (left + 1 < dist) dist = left + 1
          matrix[thisRowOffset + j + 1] = dist
          if (dist < minDistance) minDistance = dist
          left = dist
          aboveLeft = above
        }
        if (minDistance > maxDistance) continue entries
      }
      const child = this.#child(node, e)
      path[depth] = e
      this.#fuzzy(child, walk, i, depth + 1)
    }
  }

  /** The term spelled by the labels of the first `depth` entries of `path`. */
  #termOf(path: Uint32Array, depth: number): string {
    let term = ''
    for (let d = 0; d < depth; d++) term += this.#label(path[d]!)
    return term
  }

  /** The terms below `node` in SearchableMap iteration order (its entries last to first). */
  #collect(node: number, key: string, found: Array<[string, V]>): void {
    for (let e = this.#nodes[node + 1]! - 1; e >= this.#nodes[node]!; e--) {
      if (this.#labelLength(e) === 0) found.push([key, this.#valueOf(this.#target[e]!)])
      else this.#collect(this.#child(node, e), key + this.#label(e), found)
    }
  }

  /** The entry of `node` whose label `key` continues with at `pos`, or -1. */
  #childMatching(node: number, key: string, pos: number): number {
    for (let e = this.#nodes[node]!; e < this.#nodes[node + 1]!; e++) {
      const length = this.#labelLength(e)
      if (length > 0 && length <= key.length - pos && this.#labelStartsWith(e, key, pos, length)) {
        return e
      }
    }
    return -1
  }

  /** Whether entry e's label begins with `count` characters of `key` from `pos`. */
  #labelStartsWith(e: number, key: string, pos: number, count: number): boolean {
    const start = this.#labelStart[e]!
    if (this.#labelStart[e + 1]! - start < count) return false
    for (let i = 0; i < count; i++) {
      if (this.#labels[start + i] !== key.charCodeAt(pos + i)) return false
    }
    return true
  }

  #labelLength(e: number): number {
    return this.#labelStart[e + 1]! - this.#labelStart[e]!
  }

  #label(e: number): string {
    // why: labels are a few characters; a loop, as `fromCharCode.apply` over a typed array took
    // its slow path at every step of a fuzzy walk
    let label = ''
    for (let i = this.#labelStart[e]!; i < this.#labelStart[e + 1]!; i++) {
      label += String.fromCharCode(this.#labels[i]!)
    }
    return label
  }

  /** The node entry e of `node` leads to (its subtree read first where it lies below the root). */
  #child(node: number, e: number): number {
    if (node === 0) this.#loadSubtree?.(e)
    return this.#target[e]!
  }
}
