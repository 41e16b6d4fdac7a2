import { getStore, type Store } from '@netlify/blobs'
import { blobsEnvironment, LOCAL_BLOBS_SERVER_VARIABLE } from '../config.js'
import type { RequestContext } from '../requestContext.js'

export { KEYWORD_LOGS_STORE, RECORDS_STORE, SEARCH_SYNONYMS_STORE } from './blobLayout.js'
export { LOCAL_BLOBS_SERVER_VARIABLE } from '../config.js'

/** Where `LOCAL_BLOBS_SERVER` points. */
export interface LocalBlobsServer {
  edgeURL: string
  siteID: string
  token: string
}

/** The variable is set but is not the JSON it must be. */
export class InvalidLocalBlobsServerError extends Error {
  override name = 'InvalidLocalBlobsServerError'
  constructor() {
    super(
      `${LOCAL_BLOBS_SERVER_VARIABLE} must be JSON {"edgeURL", "siteID", "token"} naming a local ` +
        'Blobs server; unset it to use the platform’s Blobs.',
    )
  }
}

function localBlobsServer(): LocalBlobsServer | null {
  const raw = blobsEnvironment().localServer
  if (!raw) return null
  try {
    const value = JSON.parse(raw) as Partial<LocalBlobsServer>
    if (value.edgeURL && value.siteID && value.token) {
      return { edgeURL: value.edgeURL, siteID: value.siteID, token: value.token }
    }
  } catch {
    // reported below
  }
  throw new InvalidLocalBlobsServerError()
}

/**
 * The store name for a deploy context (D12): production uses the plain name, every other context
 * (deploy-preview, branch-deploy, local dev) gets its own store, so it never writes production data.
 */
export function storeNameFor(baseName: string, deployContext: string | undefined): string {
  const deploy = (deployContext || blobsEnvironment().deployContext || 'dev').toLowerCase()
  if (deploy === 'production') return baseName
  return `${baseName}--${deploy.replace(/[^a-z0-9-]/g, '-')}`
}

/**
 * Opens a store for this request. Call it inside a request, never at module top level: on Netlify
 * the Blobs environment only exists while a request is handled.
 */
export function openStore(baseName: string, context?: RequestContext): Store {
  const name = storeNameFor(baseName, context?.deploy?.context)
  // why: an admin who archives a record and reloads the list must see the change at once
  const consistency = 'strong'
  const local = localBlobsServer()
  if (!local) return getStore({ name, consistency })
  const { edgeURL, siteID, token } = local
  return getStore({ name, consistency, siteID, token, edgeURL, uncachedEdgeURL: edgeURL })
}

/**
 * Names the data a store of this request reaches: the same value means the same blobs. Caches
 * kept between requests are keyed by it, so that one process talking to several Blobs
 * environments (tests, benchmarks) never mixes them. The environment is hashed, never decoded.
 */
export function storeScope(baseName: string, context?: RequestContext): string {
  const environment = blobsEnvironment().identity
  return `${storeNameFor(baseName, context?.deploy?.context)}@${scopeHash(environment)}`
}

/**
 * 53 bits of a string as hex (cyrb53): names an environment in keys that never leave the process.
 * why: not sha256: the first digest in a process loads the hash machinery, which a cold search
 * would pay for the synonym cache's key alone, and a key kept in memory needs no digest an
 * attacker cannot reverse
 */
function scopeHash(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ code, 2654435761)
    h2 = Math.imul(h2 ^ code, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16)
}
