import { auditRecorder, type AuditRecorder } from './audit/auditTrail.js'
import type { AppConfig } from './config.js'
import type { Actor } from './audit/auditTrail.js'
import type { PersonalDataDeps } from './compliance/personalDataSteps.js'
import { NotConfiguredError } from './errors.js'
import type { Logger } from './log.js'
import { createLinePusher, type LineQuota } from './notifiers/linePusher.js'
import { createResendMailer } from './notifiers/resendMailer.js'
import { createShopNotifiers, type ShopNotifiers } from './notifiers/shopNotifiers.js'
import type { RequestContext } from './requestContext.js'
import { deliveryStarter } from './restock/deliveryStarter.js'
import { rebuildStarter } from './indexing/indexUpkeep.js'
import { batchAllowanceFor, type DeliveryRunOptions } from './restock/deliveryRun.js'
import { issueDeliveryTicket } from './restock/deliveryTicket.js'
import { waveNotificationId } from './restock/notificationIds.js'
import { sendRestockWave } from './restock/restockWave.js'
import type { WaveOptions } from './stock/stockWaves.js'
import { openRepositories, type Repositories } from './storage/repositories.js'
import { openSearchServices, type SearchServices } from './searchServices.js'
import { openAuditRepository, type AuditRepository } from './storage/auditRepository.js'

/**
 * What one request's services work with, built here and nowhere else: the one wiring of the
 * service layer. Every function file calls `openServices` once and hands the services what they
 * need; services open no store and build no notifier themselves. Each part is built when first
 * used (a search answer never opens the records store) and then kept for the request.
 */
export interface Services extends SearchServices {
  readonly config: AppConfig
  /** Records store: reservations, subscriptions, history, deliveries, claims. */
  readonly repositories: Repositories
  /** Team chat, community chat and customer e-mail (§6). */
  readonly notifiers: ShopNotifiers
  /** Who made the request (auth's actor: a STAFF_TOKENS name, `admin`, `preorder`); null when public. */
  readonly actor: Actor | null
  /** The audit trail store (who changed what). */
  readonly auditTrail: AuditRepository
  /** Where the request's changes are recorded, with its actor; records nothing without one. */
  readonly audit: AuditRecorder
  /** Starts a run of the background restock delivery on this deploy (deliveryStarter.ts). */
  startDelivery(notificationId: string): Promise<void>
  /** Starts a run of the background index rebuild on this deploy; false when it cannot (indexing/indexUpkeep.ts). */
  startIndexRebuild(): boolean
  /**
   * What a run of the background delivery needs (restock/deliveryRun.ts); NotConfiguredError
   * (503, logged) when neither e-mail delivery (`config.emailDelivery`) nor LINE with
   * UNSUBSCRIBE_SECRET is configured (no mailer then: the job pushes LINE recipients only).
   */
  deliveryRun(): DeliveryRunOptions
  /** What automatic restock waves need (stock/stockWaves.ts): the stock, and the send path of a manual send. */
  waves(): WaveOptions
  /** This month's LINE messages (notifiers/linePusher.ts); null without LINE or an answer. */
  lineQuota(): Promise<LineQuota | null>
}

export interface ServiceOptions {
  /**
   * Origin of this deploy for calls to its own functions: the incoming request's, so previews
   * deliver with their own code and data. Default: `config.siteUrl` (scheduled functions, whose
   * request names no deploy address).
   */
  origin?: string
  /** Who made the request (`EndpointInput.actor`). Default: null (nothing is audited). */
  actor?: Actor | null
  /** The clock every service of the request reads, ms since the epoch. Default: `Date.now`. */
  now?: () => number
}

// why: public requests (a shopper's reservation) change records without an actor to name
const NO_AUDIT: AuditRecorder = { record: async () => {} }

export function openServices(
  context: RequestContext,
  config: AppConfig,
  log: Logger,
  options: ServiceOptions = {},
): Services {
  let repositories: Repositories | undefined
  const search = openSearchServices(context, log, { now: options.now })
  let notifiers: ShopNotifiers | undefined
  let auditTrail: AuditRepository | undefined
  let audit: AuditRecorder | undefined
  const actor = options.actor ?? null
  const { now } = search
  const { defer } = search
  const startDelivery = deliveryStarter({
    origin: options.origin ?? config.siteUrl,
    ticketFor: (notificationId) =>
      issueDeliveryTicket(notificationId, config.unsubscribeSecret ?? '', now()),
    log,
    defer,
  })
  const startIndexRebuild = rebuildStarter({
    origin: options.origin ?? config.siteUrl,
    secret: config.unsubscribeSecret,
    log,
    defer,
    now,
  })
  const services: Services = {
    context,
    config,
    log,
    now,
    get repositories() {
      return (repositories ??= openRepositories(context, {
        requestRebuild: () => void startIndexRebuild(),
        now,
      }))
    },
    get keywordLog() {
      return search.keywordLog
    },
    get searchSynonyms() {
      return search.searchSynonyms
    },
    get notifiers() {
      return (notifiers ??= createShopNotifiers(config, log))
    },
    actor,
    get auditTrail() {
      return (auditTrail ??= openAuditRepository(context))
    },
    get audit() {
      return (audit ??=
        actor === null
          ? NO_AUDIT
          : auditRecorder({ repository: services.auditTrail, actor, log, now }))
    },
    defer,
    startDelivery,
    startIndexRebuild,
    deliveryRun() {
      const delivery = config.emailDelivery
      // why: LINE pushes run without an e-mail provider (a job of LINE recipients only); the
      // delivery ticket and the pushes' links are signed with UNSUBSCRIBE_SECRET either way
      const secret = delivery.ready ? delivery.unsubscribeSecret : config.unsubscribeSecret
      const linePushesOnly = !delivery.ready && delivery.missing === 'provider' && config.line
      if (!delivery.ready && !(linePushesOnly && secret)) {
        log.error('restock.delivery.misconfigured', new NotConfiguredError(delivery.fix))
        throw new NotConfiguredError(delivery.message)
      }
      return {
        repositories: services.repositories,
        jobs: services.repositories.deliveries,
        mailer: delivery.ready
          ? createResendMailer({
              apiKey: delivery.apiKey,
              from: delivery.from,
              timeoutMs: config.outboundTimeoutMs,
              log,
            })
          : null,
        line: config.line
          ? {
              pusher: createLinePusher({
                settings: config.line,
                timeoutMs: config.outboundTimeoutMs,
                log,
              }),
              contacts: services.repositories.lineContacts,
              storefrontUrl: config.storefrontUrl,
            }
          : null,
        siteUrl: config.siteUrl,
        unsubscribeSecret: secret ?? '',
        log,
        now,
        batchAllowanceMs: batchAllowanceFor(config.outboundTimeoutMs),
        budgetMs: config.deliveryBudgetMs,
        continueLater: startDelivery,
      }
    },
    lineQuota() {
      if (!config.line) return Promise.resolve(null)
      return createLinePusher({
        settings: config.line,
        timeoutMs: config.outboundTimeoutMs,
        log,
      }).quota()
    },
    waves() {
      return {
        stock: services.repositories.stock,
        sendWave: (notice) => sendRestockWave(notice, services),
        waveNotificationId,
        storefrontUrl: config.storefrontUrl,
        quietHours: config.quietHours,
        log,
        now,
      }
    },
  }
  return services
}

/**
 * What the personal-data services need for one request (compliance/personalData.ts), from the
 * same wiring. Background work of the repositories (index folds, which copy records) is
 * collected and awaited by `settle`, so that an erase folds the indexes after the last of them
 * was written.
 */
export function openPersonalData(
  context: RequestContext,
  config: AppConfig,
  log: Logger,
  actor: Actor | null,
): PersonalDataDeps {
  const pending: Promise<unknown>[] = []
  const collecting: RequestContext = { ...context, waitUntil: (work) => void pending.push(work) }
  const services = openServices(collecting, config, log, { actor })
  return {
    repositories: services.repositories,
    audit: services.audit,
    log,
    settle: async () => {
      let seen = -1
      while (seen !== pending.length) {
        seen = pending.length
        await Promise.allSettled(pending)
      }
    },
  }
}
