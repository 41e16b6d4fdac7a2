import { getStore, type Store } from '@netlify/blobs'

/** The part of a Netlify `Context` the storage layer needs. */
export interface DeployInfo {
  deploy?: { context?: string }
}

/** Name of the store holding reservations, subscriptions and notification history (§2). */
export const RECORDS_STORE = 'shop-records'
/** Name of the keyword log store (§2.6). */
export const KEYWORD_LOGS_STORE = 'keyword-logs'

/**
 * The store name for a deploy context (D12): production uses the plain name, every other context
 * (deploy-preview, branch-deploy, local dev) gets its own store, so it never writes production data.
 */
export function storeNameFor(baseName: string, deployContext: string | undefined): string {
  const deploy = (deployContext || process.env.CONTEXT || 'dev').toLowerCase()
  if (deploy === 'production') return baseName
  return `${baseName}--${deploy.replace(/[^a-z0-9-]/g, '-')}`
}

/**
 * Opens a store for this request. Call it inside a request, never at module top level: on Netlify
 * the Blobs environment only exists while a request is handled.
 */
export function openStore(baseName: string, context?: DeployInfo): Store {
  return getStore({
    name: storeNameFor(baseName, context?.deploy?.context),
    // why: an admin who archives a record and reloads the list must see the change at once
    consistency: 'strong',
  })
}
