import type { AppConfig } from '../config.js'
import type { Logger } from '../log.js'
import type { Repositories } from '../storage/repositories.js'
import { checkClick, clickTarget } from './clickLink.js'

/**
 * Answers one click on a restock e-mail's product link: a 302 to the product page whatever
 * happens (a shopper never lands on an error page), counting it only when the signature
 * matches, the link has not expired and this recipient has not clicked this notice before.
 */
export async function followClick(
  req: Request,
  services: {
    repositories: Pick<Repositories, 'demand'>
    config: Pick<AppConfig, 'siteUrl' | 'storefrontUrl' | 'unsubscribeSecret'>
    log: Logger
    now: () => number
  },
): Promise<Response> {
  const params = new URL(req.url).searchParams
  const { config, log } = services
  const target = clickTarget(params, config.storefrontUrl)
  const check = config.unsubscribeSecret
    ? checkClick(params, config.unsubscribeSecret, services.now())
    : ({ counts: false, reason: 'malformed' } as const)
  let outcome: string = check.counts ? 'counted' : check.reason
  if (check.counts) {
    try {
      const first = await services.repositories.demand.markClick(check.noticeId, check.recipient)
      if (!first) outcome = 'repeated'
    } catch (error) {
      outcome = 'not-counted'
      log.warn('restock.click_unrecorded', {
        noticeId: check.noticeId,
        error: error instanceof Error ? error.message : String(error),
      })
    }
  }
  log.info('restock.click', { outcome, noticeId: params.get('n')?.slice(0, 80) ?? null })
  return new Response(null, {
    status: 302,
    headers: { location: target, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  })
}
