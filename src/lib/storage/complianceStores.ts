import type { Store } from '@netlify/blobs'
import { createLogger } from '../log.js'
import type { RequestContext } from '../requestContext.js'
import { openStore, RECORDS_STORE, storeScope } from './blobStore.js'
import { consentRepository, type ConsentRepository } from './consentRepository.js'
import type { RecordCollectionOptions } from './recordCollection.js'
import { suppressionRepository, type SuppressionRepository } from './suppressionRepository.js'

/** What the consent, suppression and personal-data services read and write (one request). */
export interface ComplianceStores {
  /** The records store itself (claims, receipts, throttles, delivery jobs). */
  store: Store
  consents: ConsentRepository
  suppressions: SuppressionRepository
}

export function openComplianceStores(context: RequestContext): ComplianceStores {
  const store = openStore(RECORDS_STORE, context)
  const log = createLogger(context.requestId ?? 'background')
  const options: RecordCollectionOptions = {
    scope: storeScope(RECORDS_STORE, context),
    defer: (work) => context.waitUntil?.(work),
    onUnreadable: (key) => log.warn('storage.record_unreadable', { key }),
  }
  return {
    store,
    consents: consentRepository(store, options),
    suppressions: suppressionRepository(store, options),
  }
}
