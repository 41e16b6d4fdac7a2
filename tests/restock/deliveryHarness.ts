import { afterAll, beforeAll, beforeEach, expect } from 'vitest'
import { createLogger } from '../../src/lib/log.js'
import type { DeliveryRunOptions } from '../../src/lib/restock/deliveryRun.js'
import type { DeliveryJobStore } from '../../src/lib/storage/deliveryJobStore.js'
import { createResendMailer, type Mailer } from '../../src/lib/notifiers/resendMailer.js'
import { sendRestockNotification } from '../../src/lib/restock/sendRestockNotification.js'
import type { NotifySubscription } from '../../src/lib/storage/records.js'
import { openRepositories, type Repositories } from '../../src/lib/storage/repositories.js'
import { fakeContext } from '../helpers/context.js'
import {
  startRecordingServer,
  type RecordedRequest,
  type RecordingServer,
} from '../../platform/recordingServer.js'
import {
  FROM,
  fakeClock,
  freshProduct,
  resendReply,
  SECRET,
  useRestockSettings,
  SEND_CONFIG,
} from './restockTestKit.js'

export const SITE = 'https://shop.example.test'
/** `config.emailDelivery` with Resend (the stand-in) and the unsubscribe secret set. */
export const EMAIL_READY = {
  ready: true,
  apiKey: 're_test',
  from: FROM,
  unsubscribeSecret: SECRET,
} as const
const CALL_TIMEOUT_MS = 300

/**
 * Delivery tests' world: `useRestockSettings()` plus a recording Resend stand-in
 * (RESEND_BASE_URL), started once per test file; the recorded requests are cleared before every test.
 */
export function useDeliveryHarness() {
  const environment = useRestockSettings()
  const harness = {
    resend: null as unknown as RecordingServer,
    get repositories(): Repositories {
      return environment.repositories
    },
    jobs: null as unknown as DeliveryJobStore,
    /** Every request the Blobs server handled (clear with `operations.length = 0`). */
    operations: environment.operations,

    freshProduct: () => freshProduct('delivery'),

    /** The Resend SDK against the stand-in, with a short call timeout. */
    mailer: (): Mailer =>
      createResendMailer({
        apiKey: 're_test',
        from: FROM,
        timeoutMs: CALL_TIMEOUT_MS,
        log: createLogger('test'),
      }),

    /** Queues a notification for every pending subscriber of `productSlug` (the send endpoint's work). */
    async queue(productSlug: string, extra: { holdHours?: number } = {}): Promise<string> {
      let started = ''
      const summary = await sendRestockNotification(
        {
          productSlug,
          emailTitle: '再入荷しました',
          emailBody: 'お待たせしました。\n本日入荷です。',
          ...extra,
        },
        {
          repositories: harness.repositories,
          config: { ...SEND_CONFIG, emailDelivery: EMAIL_READY },
          log: createLogger('test'),
          now: Date.now,
          startDelivery: async (id) => {
            started = id
          },
        },
      )
      expect(started).toBe(summary.notificationId)
      return summary.notificationId
    },

    /** Delivery options on a fake clock; `continued` collects the continuations asked for. */
    options(clock: ReturnType<typeof fakeClock>, extra: Partial<DeliveryRunOptions> = {}) {
      const continued: string[] = []
      const deliveryOptions: DeliveryRunOptions = {
        repositories: harness.repositories,
        mailer: harness.mailer(),
        siteUrl: SITE,
        unsubscribeSecret: SECRET,
        log: createLogger('test'),
        now: clock.now,
        sleep: clock.sleep,
        continueLater: async (id) => {
          continued.push(id)
        },
        ...extra,
      }
      return { deliveryOptions, continued }
    },

    batchCalls: (): RecordedRequest[] =>
      harness.resend.requests.filter((request) => request.path === '/emails/batch'),

    statusesOf: (subscriptions: NotifySubscription[]) =>
      Promise.all(
        subscriptions.map(
          async (subscription) => (await harness.repositories.subscriptions.get(subscription))!,
        ),
      ),
  }

  beforeAll(async () => {
    harness.resend = await startRecordingServer()
    process.env.RESEND_BASE_URL = harness.resend.url
    harness.jobs = openRepositories(fakeContext()).deliveries
  })

  afterAll(async () => {
    await harness.resend.close()
  })

  beforeEach(() => {
    harness.resend.requests.length = 0
    harness.resend.reply = resendReply()
  })

  return harness
}

/** The addresses a set of batch calls went to, in order. */
export function sentTo(requests: RecordedRequest[]): string[] {
  return requests.flatMap((request) => (request.json as { to: string }[]).map((email) => email.to))
}
