import { describe, expect, it } from 'vitest'
import { deployedSiteSearch } from '../../src/lib/search/query/defaultSiteSearch.js'
import { normalizeQuery } from '../../src/lib/search/textNormalization.js'
import { searchQualityCases } from '../../bench/searchQualityCases.js'

// why: the generated module comes from `content/` (npm test runs the build first)
describe('search quality over the sample content', () => {
  it('has a labelled table of at least 40 queries', () => {
    expect(searchQualityCases.length).toBeGreaterThanOrEqual(40)
  })

  it.each(searchQualityCases)(
    '$kind: "$query" finds $expected in the top 3',
    async ({ query, expected }) => {
      const { results } = await deployedSiteSearch.search(normalizeQuery(query), 200)
      expect(results.slice(0, 3).map((result) => result.id)).toContain(expected)
    },
  )
})
