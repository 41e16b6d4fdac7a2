/**
 * Ranking on a generated, labelled corpus: `tsx bench/bench-search-ranking.ts` prints the mean
 * reciprocal rank (MRR) and hit@10 per kind of known-item query (two rare title words,
 * a Latin word with one typo, an inner Japanese word, a piece of a compound, full-width Latin).
 * Run by bench-search.ts. Deterministic: the same seed gives the same pages and queries.
 *
 * The pages are built the way blog pages are: a title of a few words, a body that repeats its
 * own topic words many times and mentions words of other pages' titles, so a title word of one
 * page is a body word of many others.
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import MiniSearch from 'minisearch'
import type { ContentPage } from '../src/build/search/contentPages.js'
import { searchDataInMemory } from './searchDataInMemory.js'
import { createSiteSearch } from '../src/lib/search/query/siteSearch.js'
import { searchOptions, type IndexedPage } from '../src/lib/search/terms/indexOptions.js'
import { normalizeQuery } from '../src/lib/search/textNormalization.js'
import { searchDataOf } from '../src/build/siteContent.js'
import { figure, progress } from './benchReport.js'
import { JA_NOUNS, KATAKANA, seededRandom } from './bench-search-corpus.js'

const RANKING_KINDS = [
  'two rare title words',
  'Latin word with one typo',
  'inner Japanese word',
  'piece of a compound',
  'full-width Latin',
] as const
type RankingKind = (typeof RANKING_KINDS)[number]

interface LabelledQuery {
  kind: RankingKind
  query: string
  expected: string
}

const PAGES = 3000
const QUERIES_PER_KIND = 150

/** The labelled corpus: pages and known-item queries made from their titles. */
function rankingCorpus(): { pages: ContentPage[]; queries: LabelledQuery[] } {
  const { random, pick, between } = seededRandom(20261123)
  const syllables = 'ka ki ku ke ko sa shi su se so ta te to na ni no ha hi ma mi mo ra ri ro'
  const names = new Set<string>()
  // why: mostly one page per name, as known items are; neighbours one letter apart still occur
  while (names.size < 6000) {
    const parts = Array.from({ length: between(3, 4) }, () => pick(syllables.split(' ')))
    names.add(parts.join(''))
  }
  const latin = [...names]
  // why: compounds of two nouns (焙煎ワークショップ); their inner pieces are what shoppers type
  const compounds = [
    ...new Set(Array.from({ length: 6000 }, () => pick(JA_NOUNS) + pick(KATAKANA))),
  ]
  const titles = Array.from({ length: PAGES }, () => {
    const english = random() < 0.2
    const words = english
      ? [pick(latin), pick(latin), pick(['guide', 'notes', 'review', 'workshop'])]
      : [pick(latin), pick(compounds), random() < 0.5 ? pick(compounds) : pick(JA_NOUNS)]
    return { english, words }
  })
  // why: what makes ranking hard: other pages' title words repeated in a body
  const otherTitleWord = (): string => pick(pick(titles).words)
  const pages = titles.map(({ english, words }, i): ContentPage => {
    const title = english
      ? words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(' ')
      : `${words[0]![0]!.toUpperCase()}${words[0]!.slice(1)}の${words[1]}と${words[2]}`
    const topics = [words[1]!, otherTitleWord(), otherTitleWord()]
    const sentences: string[] = []
    const length = between(20, 120)
    for (let s = 0; s < length; s++) {
      const a = random() < 0.5 ? pick(topics) : otherTitleWord()
      const b = random() < 0.2 ? pick(topics) : random() < 0.5 ? pick(JA_NOUNS) : otherTitleWord()
      sentences.push(english ? `The ${a} and the ${b} were tried.` : `${a}と${b}を試しました。`)
    }
    const id = `blog/page-${i}`
    return {
      id,
      slug: `/${id}`,
      contentType: 'blog',
      fileSlug: `page-${i}`,
      title,
      description: '',
      tags: [pick(JA_NOUNS)],
      createdAt: '2026-11-01',
      text: sentences.join(' '),
    }
  })
  return { pages, queries: labelledQueries(pages, random, pick) }
}
function labelledQueries(
  pages: readonly ContentPage[],
  random: () => number,
  pick: <T>(items: readonly T[]) => T,
): LabelledQuery[] {
  const titleWords = (page: ContentPage): string[] =>
    page.title
      .toLowerCase()
      .split(/[ のと]/)
      .filter(Boolean)
  // why: "rare" = in few titles, as a known-item query takes the title's distinctive words
  const titleFrequency = new Map<string, number>()
  for (const page of pages) {
    for (const word of new Set(titleWords(page))) {
      titleFrequency.set(word, (titleFrequency.get(word) ?? 0) + 1)
    }
  }
  const queries: LabelledQuery[] = []
  const add = (kind: RankingKind, make: (page: ContentPage) => string | null): void => {
    for (
      let tries = 0, made = 0;
      made < QUERIES_PER_KIND && tries < 10 * QUERIES_PER_KIND;
      tries++
    ) {
      const page = pick(pages)
      const query = make(page)
      if (query) {
        queries.push({ kind, query, expected: page.id })
        made++
      }
    }
  }
  const isLatin = (word: string): boolean => /^[a-z]+$/.test(word)
  add('two rare title words', (page) => {
    const words = titleWords(page).sort((a, b) => titleFrequency.get(a)! - titleFrequency.get(b)!)
    return words.length >= 2 ? `${words[0]} ${words[1]}` : null
  })
  add('Latin word with one typo', (page) => {
    const word = titleWords(page).find((w) => isLatin(w) && w.length >= 6)
    if (!word) return null
    const at = 1 + Math.floor(random() * (word.length - 1))
    const letter = 'aeiouknst'[Math.floor(random() * 9)]!
    const typo = word.slice(0, at) + letter + word.slice(at + 1)
    return typo === word ? null : typo
  })
  add('inner Japanese word', (page) => {
    // why: a Japanese word after the title's first, i.e. inside the title, not at its start
    const words = titleWords(page)
      .slice(1)
      .filter((w) => !isLatin(w))
    return words.length ? pick(words) : null
  })
  add('piece of a compound', (page) => {
    const compound = titleWords(page).find((w) => !isLatin(w) && w.length >= 5)
    if (!compound) return null
    // why: a piece that starts inside the compound, so neither whole word nor prefix
    const from = 1 + Math.floor(random() * (compound.length - 3))
    return compound.slice(from, from + 3 + Math.floor(random() * 2))
  })
  add('full-width Latin', (page) => {
    const word = titleWords(page).find(isLatin)
    if (!word) return null
    return [...word.toUpperCase()]
      .map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))
      .join('')
  })
  return queries
}

/** MRR and hit@10 per kind over the labelled corpus, printed as figures. */
export async function benchRanking(): Promise<void> {
  progress('search: building the labelled corpus', 0, 1)
  const { pages, queries } = rankingCorpus()
  const index = new MiniSearch<IndexedPage>(searchOptions)
  index.addAll(pages)
  const bytes = searchDataOf(pages, index, 'ranking').bytes
  progress('search: building the labelled corpus', 1, 1)
  const search = createSiteSearch(() => searchDataInMemory(bytes), { formatVersion: 'ranking' })
  const reciprocal = new Map<RankingKind, number[]>()
  const best = new Map<RankingKind, number[]>()
  for (const [i, { kind, query, expected }] of queries.entries()) {
    if (i % 50 === 0) progress('search: ranking queries', i, queries.length)
    const ids = (await search.search(normalizeQuery(query), 50)).results.map((result) => result.id)
    const rank = ids.indexOf(expected)
    const list = reciprocal.get(kind) ?? []
    list.push(rank < 0 ? 0 : 1 / (rank + 1))
    reciprocal.set(kind, list)
    const bestList = best.get(kind) ?? []
    bestList.push(bestReciprocalRank(pages, query, kind))
    best.set(kind, bestList)
  }
  progress('search: ranking queries', queries.length, queries.length)
  console.log(
    `\nRanking: ${pages.length} generated pages, ${QUERIES_PER_KIND} known-item queries per kind ` +
      '(MRR: mean of 1/rank of the page the query was made from; hit@10: share in the top 10)',
  )
  for (const kind of RANKING_KINDS) {
    const values = reciprocal.get(kind) ?? []
    const mrr = values.reduce((sum, value) => sum + value, 0) / values.length
    const hit10 = values.filter((value) => value >= 0.1).length / values.length
    const bestValues = best.get(kind) ?? []
    const bestMrr = bestValues.reduce((sum, value) => sum + value, 0) / bestValues.length
    figure(`MRR, ${kind}`, mrr, '')
    figure('  if title ties were in random order', bestMrr, '')
    figure(`hit@10, ${kind}`, hit10 * 100, '%')
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchRanking()
}

/**
 * The reciprocal rank to expect from the title alone: the pages whose title holds the query word as
 * well as the labelled page's does are indistinguishable from the title, so the labelled page
 * is at a uniformly random place among them: (1/k)·(1 + 1/2 + … + 1/k) for k such pages.
 */
function bestReciprocalRank(
  pages: readonly ContentPage[],
  query: string,
  kind: RankingKind,
): number {
  const normalized = normalizeQuery(query)
  const words = normalized.split(' ')
  const latinWords = (title: string): string[] => title.split(/[^a-z0-9]+/)
  let k = 0
  for (const page of pages) {
    const title = normalizeQuery(page.title)
    const holds = words.every((word) =>
      kind === 'Latin word with one typo'
        ? latinWords(title).some((w) => w.length === word.length && differsByOne(w, word))
        : /^[a-z0-9]+$/.test(word)
          ? latinWords(title).includes(word)
          : title.includes(word),
    )
    if (holds) k++
  }
  if (k === 0) return 1
  let sum = 0
  for (let i = 1; i <= k; i++) sum += 1 / i
  return sum / k
}

function differsByOne(a: string, b: string): boolean {
  let differences = 0
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differences++
  return differences === 1
}
