import type { Options, SearchOptions } from 'minisearch'
import { tokenizeBigrams } from './cjkTokenizer.js'
import { encodeTerm, isEncodedJapaneseTerm } from './termEncoding.js'

/** A page as the index sees it; `tags` are joined into one field. */
export interface IndexedPage {
  id: string
  title: string
  description: string
  tags: string[]
  text: string
}

/**
 * Written into the search data file and checked when it is read: an index built with other
 * options or layout cannot be read correctly. Bump the number when tokenizing, fields or the
 * file layout (index/searchDataReader.ts) change.
 */
export const SEARCH_INDEX_FORMAT =
  '14-bigram-folded-varint-alias-notplain-subtrees-spellings-textapart-readings'

/** Query-time options (MiniSearch `searchOptions`). */
function createQueryOptions(): SearchOptions {
  return {
    /** MiniSearch default `false`. A partial word matches (spec 4.11): `toko` finds `tokoname`. */
    prefix: true,
    /**
     * MiniSearch default `false`. Tolerance 0.2 (spec 4.11) for Latin terms: one typo in five letters.
     * why: one changed character in a two- or three-character Japanese word is another word.
     */
    fuzzy: (term) => (isEncodedJapaneseTerm(term) ? false : 0.2),
    /** MiniSearch default: every field weighs 1. Title, then description, then tags = text. */
    boost: { title: 3, description: 2, tags: 1, text: 1 },
    /**
     * MiniSearch default `'OR'`. The search service combines the terms of one query word with
     * AND (every bigram of a Japanese word must occur) and the words of a query with OR.
     */
    combineWith: 'AND',
  }
}

/**
 * Index options shared by the build and the runtime (they must agree), with `tokenize` splitting
 * text into terms: the deployed index uses `tokenizeBigrams`, the benchmark compares others.
 */
export function createSearchOptions(tokenize: (text: string) => string[]): Options<IndexedPage> {
  return {
    /** No default. The page id `<contentType>/<fileSlug>` (D11). */
    idField: 'id',
    /** No default. The indexed fields; `tags` is read through `extractField`. */
    fields: ['title', 'description', 'tags', 'text'],
    /** MiniSearch default `[]`. Result fields are kept beside the index, not inside it. */
    storeFields: [],
    /** MiniSearch default: reads `document[fieldName]`. Tags are indexed as one text. */
    extractField: (document, fieldName) => {
      const value = document[fieldName as keyof IndexedPage]
      return Array.isArray(value) ? value.join(' ') : value
    },
    /**
     * MiniSearch default: splits at spaces and punctuation, which leaves a Japanese sentence as
     * one token. Ours splits Japanese runs into bigrams (or words, see docs/search.md).
     */
    tokenize,
    /**
     * MiniSearch default: lower-case. The tokenizers above already return NFKC-normalised,
     * lower-cased terms (D11); Japanese terms are then stored hex-encoded (see termEncoding.ts).
     * why: normalising each of millions of bigrams a second time doubled the build time
     */
    processTerm: (term) => (term ? encodeTerm(term) : null),
    /** MiniSearch default: see `createQueryOptions`. */
    searchOptions: createQueryOptions(),
  }
}

/** The options of the deployed index: Japanese bigrams, chosen by the measurements in docs/search.md. */
export const searchOptions: Options<IndexedPage> = createSearchOptions(tokenizeBigrams)
