import * as generated from '../../generated/siteContent.js'
import { createSiteSearch, type SiteSearch } from './siteSearch.js'

let siteSearch: SiteSearch | null = null

/** The search over the content baked into this deploy by `scripts/build-content.ts`. */
export function getSiteSearch(): SiteSearch {
  return (siteSearch ??= createSiteSearch({
    formatVersion: generated.SITE_CONTENT_FORMAT_VERSION,
    searchIndex: generated.searchIndex,
    packedPages: generated.packedPages,
    productCatalogue: generated.productCatalogue,
  }))
}
