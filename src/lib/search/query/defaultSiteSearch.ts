import { SEARCH_DATA_ID } from '../../../generated/siteContent.js'
import { readSearchData } from '../index/searchDataFile.js'
import { createSiteSearch, type SiteSearch } from './siteSearch.js'

let siteSearch: SiteSearch | null = null

/** The search over the content baked into this deploy by `scripts/build-content.ts`. */
export function getSiteSearch(): SiteSearch {
  return (siteSearch ??= createSiteSearch(() => readSearchData(SEARCH_DATA_ID)))
}
