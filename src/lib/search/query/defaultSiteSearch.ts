import { SEARCH_DATA_ID } from '../../../generated/siteContent.js'
import { readSearchData } from '../index/searchDataFile.js'
import { createSiteSearch } from './siteSearch.js'

/**
 * The search over the content baked into this deploy by `scripts/build-content.ts`: one per
 * function instance, which keeps what it read and its workspace while the instance lives. It
 * reads its data at the first search.
 */
export const deployedSiteSearch = createSiteSearch(() => readSearchData(SEARCH_DATA_ID))
