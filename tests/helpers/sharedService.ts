import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { inject } from 'vitest'
import { WEBHOOK_SECRET } from '../compliance/complianceTestKit.js'
import { ADMIN_TOKEN, PREORDER_TOKEN } from './tokens.js'

/**
 * The services the browser test files share (the `chromium` project of vitest.config.ts): one
 * `npm start` dev server per profile, started by tests/helpers/sharedServiceSetup.ts when the
 * first file of that profile asks for it, and emptied before each file that uses it.
 */

/**
 * How long a profile's service may take to start: `npm start`'s dev server copying the project,
 * netlify dev building every function on its first start, and each function answering once.
 * Twice the limit of a file's own dev server (platform/startDevServer.ts): the first file of a
 * profile waits for this, on a machine whose two cores the other test files share.
 */
export const SHARED_SERVICE_START_LIMIT_MS = 220_000

/** The named staff member's token (`STAFF_TOKENS`, admin group) in every profile. */
export const SATO_TOKEN = 'sato-staff-token-for-tests'
/** Named staff with one group each in the `archiveToken` profile (`STAFF_TOKENS`): preorder, admin. */
export const SUZUKI_TOKEN = 'suzuki-staff-token-for-tests'
export const TANAKA_TOKEN = 'tanaka-staff-token-for-tests'
/** A named staff member whose token holds both groups (`STAFF_TOKENS`, admin+preorder). */
export const YAMADA_TOKEN = 'yamada-staff-token-for-tests'
/** The key of unsubscribe links in every profile (`UNSUBSCRIBE_SECRET`). */
export const UNSUBSCRIBE_SECRET = 'unsubscribe-secret-for-tests'

const SHOP: Record<string, string> = {
  ADMIN_API_TOKEN: ADMIN_TOKEN,
  // why: empty, so that the admin token opens the archive too (D7), whatever the caller's shell set
  PREORDER_API_TOKEN: '',
  STAFF_TOKENS: `sato:${SATO_TOKEN}:admin,yamada:${YAMADA_TOKEN}:admin+preorder`,
  UNSUBSCRIBE_SECRET,
  RESEND_WEBHOOK_SECRET: WEBHOOK_SECRET,
}

/**
 * The profiles, by the environment of their service:
 * - `shop`: one admin token for every endpoint (D7), a named staff member, e-mails only logged;
 * - `archiveToken`: the same with a separate archive token (`PREORDER_API_TOKEN`, D7) and named
 *   staff whose tokens hold one group or both (sato and yamada both, suzuki preorder, tanaka admin);
 * - `mail`: `shop` with real delivery to a Resend stand-in on `resendPort`, which the file that
 *   runs listens on (tests/helpers/chromiumFixture.ts);
 * - `doubleOptIn`: `shop` with double opt-in (`NOTIFY_DOUBLE_OPT_IN`): sign-ups wait for their
 *   confirmation;
 * - `line`: `shop` with the four LINE variables set (the widgets offer 「LINEで受け取る」), LINE's
 *   addresses pointed at `resendPort` (nothing there answers as LINE: the login only redirects).
 */
export type ServiceProfile = 'shop' | 'archiveToken' | 'mail' | 'doubleOptIn' | 'line'

/** The environment of a profile's service; `resendPort` is where its e-mails go (`mail`). */
export function profileEnvironment(
  profile: ServiceProfile,
  resendPort: number,
): Record<string, string> {
  if (profile === 'archiveToken') {
    return {
      ...SHOP,
      PREORDER_API_TOKEN: PREORDER_TOKEN,
      STAFF_TOKENS: [
        `sato:${SATO_TOKEN}:admin+preorder`,
        `suzuki:${SUZUKI_TOKEN}:preorder`,
        `tanaka:${TANAKA_TOKEN}:admin`,
        `yamada:${YAMADA_TOKEN}:admin+preorder`,
      ].join(','),
    }
  }
  if (profile === 'shop') return SHOP
  if (profile === 'doubleOptIn') return { ...SHOP, NOTIFY_DOUBLE_OPT_IN: 'true' }
  if (profile === 'line') {
    return {
      ...SHOP,
      LINE_LOGIN_CHANNEL_ID: '1657000003',
      LINE_LOGIN_CHANNEL_SECRET: 'line-login-secret-for-tests',
      LINE_MESSAGING_CHANNEL_ACCESS_TOKEN: 'line-token-for-tests',
      LINE_MESSAGING_CHANNEL_SECRET: 'line-messaging-secret-for-tests',
      LINE_API_BASE_URL: `http://127.0.0.1:${resendPort}`,
      LINE_LOGIN_BASE_URL: `http://127.0.0.1:${resendPort}`,
    }
  }
  return {
    ...SHOP,
    RESEND_API_KEY: 're_shared_service',
    RESEND_FROM_EMAIL: 'Shop <shop@example.jp>',
    RESEND_BASE_URL: `http://127.0.0.1:${resendPort}`,
  }
}

/** A started service of a profile, as the global setup answers it. */
export interface SharedService {
  url: string
  /** The project copy it runs in; its blobs are under `.netlify/local-blobs/`. */
  root: string
  /** Where the service sends e-mail (`mail` profile; a Resend stand-in must listen there). */
  resendPort: number
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The address of tests/helpers/sharedServiceSetup.ts's control server. */
    sharedServiceControl: string
  }
}

/**
 * The profile's service, started by the global setup if no file asked for it before. Waits as
 * long as the start may take (SHARED_SERVICE_START_LIMIT_MS); a service that did not come up is
 * an error naming the profile, with the server's output.
 */
export async function sharedService(profile: ServiceProfile): Promise<SharedService> {
  const response = await fetch(`${inject('sharedServiceControl')}/service/${profile}`)
  const answer = (await response.json()) as SharedService & { error?: string }
  if (!response.ok) throw new Error(answer.error)
  return answer
}

/**
 * Deletes every blob of the service (entries and metadata of every store), so the file that runs
 * starts from an empty shop, as a service of its own would. The Blobs server reads its folder on
 * every request and creates a store's folder on its first write.
 */
export async function emptyServiceData(root: string): Promise<void> {
  const blobs = join(root, '.netlify/local-blobs')
  for (const part of ['entries', 'metadata']) {
    const sites = await readdir(join(blobs, part)).catch(() => [])
    for (const site of sites) {
      const stores = await readdir(join(blobs, part, site)).catch(() => [])
      for (const store of stores) {
        await rm(join(blobs, part, site, store), { recursive: true, force: true })
      }
    }
  }
}
