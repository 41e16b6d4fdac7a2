import { z } from 'zod'
import { count, timestamp } from './answerParts.js'

/**
 * Answers of the site search, its completion, its keyword analytics and the staff synonyms
 * (responseSchemas.ts).
 */

export const keywordRollupAnswer = z.strictObject({
  success: z.literal(true),
  days: z
    .array(z.string().meta({ examples: ['2026-11-22'] }))
    .meta({ description: 'The UTC days rolled up by this run.' }),
  hours: count.meta({ description: 'Hours rolled up by this run.' }),
  demandDays: count.meta({
    description:
      'Closed JST day rollups of the pictures of demand written by this run (one per kind and day).',
  }),
})

const queryCount = z.strictObject({ query: z.string(), count: z.int().min(1) })

export const keywordSummary = z.strictObject({
  success: z.literal(true),
  from: timestamp,
  to: timestamp,
  totalSearches: count,
  topQueries: z.array(queryCount),
  zeroResultQueries: z.array(queryCount),
})

const searchResult = z.strictObject({
  id: z.string().meta({ examples: ['news/yoyaku-shohin-nyuka'] }),
  slug: z
    .string()
    .meta({ description: 'URL path of the page.', examples: ['/news/yoyaku-shohin-nyuka'] }),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  createdAt: z.string(),
  excerpt: z.string(),
  highlighted_title: z.string().meta({
    description: 'Title, HTML-escaped, matches wrapped in `<mark>`.',
  }),
  highlighted_excerpt: z.string().meta({
    description: 'Excerpt, HTML-escaped, matches wrapped in `<mark>`.',
  }),
  score: z.number(),
})

export const searchAnswer = z.strictObject({
  results: z.array(searchResult),
  query: z.string().meta({ description: 'The normalized query; `""` when none was given.' }),
  totalResults: count,
})

export const suggestAnswer = z.strictObject({
  query: z.string().meta({ description: 'The normalized prefix; `""` when none was given.' }),
  suggestions: z
    .array(
      z.strictObject({
        text: z.string().meta({ description: 'The title or tag, as the page writes it.' }),
        kind: z.enum(['title', 'tag']),
        slug: z
          .string()
          .nullable()
          .meta({ description: 'URL path of the page for a title; null for a tag.' }),
      }),
    )
    .max(8),
})

const synonymGroup = z.strictObject({
  id: z.string().meta({ examples: ['syn_4f9c2a7b1e3d5a60'] }),
  words: z.array(z.string()).min(2).max(10),
  createdAt: timestamp,
})

export const synonymListAnswer = z.strictObject({
  success: z.literal(true),
  groups: z.array(synonymGroup).meta({ description: 'Added by staff, oldest first.' }),
  builtIn: z
    .array(z.array(z.string()))
    .meta({ description: 'The groups of content/search-synonyms baked into this deploy.' }),
})

export const synonymAddedAnswer = z.strictObject({ success: z.literal(true), group: synonymGroup })

export const synonymDeletedAnswer = z.strictObject({ success: z.literal(true), id: z.string() })
