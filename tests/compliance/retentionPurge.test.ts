import { describe, expect, it } from 'vitest'
import purgeModule from '../../netlify/functions/retention-purge.js'
import { recordConsent } from '../../src/lib/compliance/recordConsent.js'
import { purgeExpiredData } from '../../src/lib/compliance/retentionPurge.js'
import { createLogger } from '../../src/lib/log.js'
import type { NotifySubscription } from '../../src/lib/storage/records.js'
import { webhookEventKeys } from '../../src/lib/storage/blobLayout.js'
import {
  noteUnconfirmedSignup,
  pendingConfirmations,
} from '../../src/lib/storage/confirmationThrottle.js'
import { ExportJobStore } from '../../src/lib/storage/exportJobStore.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { freshProduct, seedSubscription, useSendSettings } from '../restock/restockTestKit.js'

const restock = useSendSettings()
const DAY = 24 * 60 * 60_000
const T0 = Date.UTC(2026, 0, 10, 0, 0, 0)
const at = (ms: number) => new Date(ms).toISOString()

async function seedWithConsent(overrides: Partial<NotifySubscription>) {
  const subscription = await seedSubscription(restock.repositories, overrides)
  const { consents } = restock.repositories
  const consent = await recordConsent(consents, {
    email: subscription.email,
    kind: 'restock-notice',
    recordId: subscription.id,
    productSlug: subscription.productSlug,
    source: 'widget',
    at: new Date(subscription.createdAt),
  })
  return { subscription, consent }
}

function purgeAt(ms: number, retentionDays = 365) {
  return purgeExpiredData({
    repositories: restock.repositories,
    log: createLogger('test'),
    retentionDays,
    now: () => ms,
  })
}

describe('retention purge', () => {
  it('keeps consents for one month after the last e-mail or unsubscribe, subscriptions for RETENTION_DAYS', async () => {
    const productSlug = freshProduct()
    const pending = await seedWithConsent({ productSlug, createdAt: at(T0) })
    const notified = await seedWithConsent({
      productSlug,
      createdAt: at(T0),
      status: 'notified',
      notifiedAt: at(T0 + 10 * DAY),
    })
    const unsubscribed = await seedWithConsent({
      productSlug,
      createdAt: at(T0),
      status: 'unsubscribed',
      unsubscribedAt: at(T0 + 20 * DAY),
    })
    const { consents } = restock.repositories
    const consentOf = (seeded: { consent: { emailHash: string; id: string } }) =>
      consents.get(seeded.consent)

    // 30 days after the notice (Jan 20 → Feb 19): not yet a month
    await purgeAt(T0 + 40 * DAY)
    expect(await consentOf(notified)).not.toBeNull()
    // Feb 21: a month after the notice (Jan 20), not yet after the unsubscribe (Jan 30 + a month rolls over to Mar 2 = T0 + 51 days)
    await purgeAt(T0 + 42 * DAY)
    expect(await consentOf(notified)).toBeNull()
    expect(await consentOf(unsubscribed)).not.toBeNull()
    expect(await restock.repositories.subscriptions.get(notified.subscription)).not.toBeNull()
    await purgeAt(T0 + 51 * DAY - 1)
    expect(await consentOf(unsubscribed)).not.toBeNull()
    await purgeAt(T0 + 51 * DAY + 1)
    expect(await consentOf(unsubscribed)).toBeNull()

    // RETENTION_DAYS after the notice / unsubscribe, the subscriptions go; a pending one stays
    await purgeAt(T0 + 10 * DAY + 365 * DAY - 1)
    expect(await restock.repositories.subscriptions.get(notified.subscription)).not.toBeNull()
    const summary = await purgeAt(T0 + 20 * DAY + 365 * DAY + 1)
    expect(summary.subscriptions).toBe(2)
    expect(await restock.repositories.subscriptions.get(notified.subscription)).toBeNull()
    expect(await restock.repositories.subscriptions.get(unsubscribed.subscription)).toBeNull()
    expect(await restock.repositories.subscriptions.get(pending.subscription)).not.toBeNull()
    expect(await consentOf(pending)).not.toBeNull()

    // a shorter RETENTION_DAYS is honoured
    await restock.repositories.subscriptions.update(
      pending.subscription,
      (s: NotifySubscription) => ({
        ...s,
        status: 'notified',
        notifiedAt: at(T0 + 30 * DAY),
      }),
    )
    await purgeAt(T0 + 40 * DAY, 30)
    expect(await restock.repositories.subscriptions.get(pending.subscription)).not.toBeNull()
    await purgeAt(T0 + 61 * DAY, 30)
    expect(await restock.repositories.subscriptions.get(pending.subscription)).toBeNull()
  })

  it('deletes unconfirmed sign-ups and their consents 7 days after they were made', async () => {
    const productSlug = freshProduct()
    const unconfirmed = await seedWithConsent({ productSlug, createdAt: at(T0), confirmedAt: null })
    const { store } = restock.repositories
    const { email } = unconfirmed.subscription
    await noteUnconfirmedSignup(store, email, unconfirmed.subscription, {
      now: T0,
      intervalMs: 60_000,
      keepMs: 8 * DAY,
    })
    const confirmed = await seedWithConsent({
      productSlug,
      createdAt: at(T0),
      confirmedAt: at(T0 + DAY),
    })
    expect((await purgeAt(T0 + 7 * DAY - 1)).unconfirmed).toBe(0)
    expect(await restock.repositories.subscriptions.get(unconfirmed.subscription)).not.toBeNull()
    expect((await purgeAt(T0 + 7 * DAY + 1)).unconfirmed).toBe(1)
    expect(await restock.repositories.subscriptions.get(unconfirmed.subscription)).toBeNull()
    // why: its address's list of sign-ups waiting for confirmation forgets it too
    expect(await pendingConfirmations(store, email)).toEqual([])
    const { consents } = restock.repositories
    expect(await consents.get(unconfirmed.consent)).toBeNull()
    expect(await restock.repositories.subscriptions.get(confirmed.subscription)).not.toBeNull()
  })

  it('runs as the scheduled function', async () => {
    const productSlug = freshProduct()
    const old = await seedSubscription(restock.repositories, {
      productSlug,
      createdAt: '2020-01-01T00:00:00.000Z',
      status: 'notified',
      notifiedAt: '2020-01-02T00:00:00.000Z',
    })
    const response = await purgeModule(
      jsonRequest('/.netlify/functions/retention-purge', { next_run: '2026-11-23T00:00:00Z' }),
      fakeContext(),
    )
    const { status, body } = await readJson(response)
    expect(status).toBe(200)
    expect(body.success).toBe(true)
    expect(body.deleted.subscriptions).toBeGreaterThanOrEqual(1)
    expect(await restock.repositories.subscriptions.get(old)).toBeNull()
  })

  it('removes stock webhook replay marks 30 days after their event arrived, old unindexed ones too', async () => {
    const { stockEvents, store } = restock.repositories
    const run = crypto.randomUUID().slice(0, 8)
    const [old, recent, legacyOld, legacyRecent] = [
      'old',
      'recent',
      'legacy-old',
      'legacy-new',
    ].map((name) => `evt_${run}_${name}`)
    expect(await stockEvents.begin(old, T0)).toBe('new')
    await stockEvents.complete(old, T0)
    expect(await stockEvents.begin(recent, T0 + 20 * DAY)).toBe('new')
    await stockEvents.complete(recent, T0 + 20 * DAY)
    // why: marks written before the day index existed have no entry in it
    for (const [eventId, ms] of [
      [legacyOld, T0],
      [legacyRecent, T0 + 20 * DAY],
    ] as const) {
      await store.setJSON(webhookEventKeys('stock').mark(eventId), {
        eventId,
        receivedAt: at(ms),
        completedAt: at(ms),
      })
    }

    // 30 days after T0 + 1 day: the marks of T0 go, those of T0 + 20 days stay
    const summary = await purgeAt(T0 + 31 * DAY)
    expect(summary.stockEvents).toBeGreaterThanOrEqual(2)
    expect(await store.get(webhookEventKeys('stock').mark(old))).toBeNull()
    expect(await store.get(webhookEventKeys('stock').mark(legacyOld))).toBeNull()
    expect(await stockEvents.begin(recent, T0 + 31 * DAY)).toBe('duplicate')
    expect(await stockEvents.begin(legacyRecent, T0 + 31 * DAY)).toBe('duplicate')
    // the old event, arriving again, is applied again (its sender stopped retrying long before)
    expect(await stockEvents.begin(old, T0 + 31 * DAY)).toBe('new')

    // the legacy mark was indexed by the first run, so the next purge removes it in time
    await purgeAt(T0 + 51 * DAY)
    expect(await store.get(webhookEventKeys('stock').mark(recent))).toBeNull()
    expect(await store.get(webhookEventKeys('stock').mark(legacyRecent))).toBeNull()
    expect(await store.get(webhookEventKeys('stock').mark(old))).not.toBeNull()
  })
  it('deletes CSV exports a day after they were made, with their parts and spent tickets', async () => {
    const { store } = restock.repositories
    const jobs = new ExportJobStore(store)
    const run = crypto.randomUUID().slice(0, 8)
    const job = (id: string, createdAt: number) => ({
      id,
      list: 'notify' as const,
      filters: {},
      state: 'done' as const,
      createdAt: at(createdAt),
      updatedAt: at(createdAt),
      requestedBy: null,
      fileName: 'x.csv',
      totalRows: 1,
      writtenRows: 1,
      parts: 1,
      bytes: 10,
    })
    const [old, recent] = [`exp_${run}_old`, `exp_${run}_recent`]
    await jobs.create(job(old, T0))
    await jobs.writePart(old, 1, 'id\r\n')
    await jobs.create(job(recent, T0 + DAY))
    await jobs.writePart(recent, 1, 'id\r\n')
    await jobs.spendTicket(`${run}-old`, T0 + 5 * 60_000, T0)
    await jobs.spendTicket(`${run}-recent`, T0 + DAY + 5 * 60_000, T0 + DAY)

    // T0 + 1 day + 1 ms: the first export is a day old, the second was just made
    const summary = await purgeAt(T0 + DAY + 1)
    expect(summary.exports).toBeGreaterThanOrEqual(1)
    expect(await jobs.get(old)).toBeNull()
    expect(await jobs.readPart(old, 1)).toBeNull()
    expect(await jobs.get(recent)).not.toBeNull()
    expect(await jobs.readPart(recent, 1)).toBe('id\r\n')
    expect(await store.get(`export-tickets/${run}-old`)).toBeNull()
    expect(await store.get(`export-tickets/${run}-recent`)).not.toBeNull()
  })

  it('deletes what older deploys left of their listings (snapshots, journal, the v1 history index)', async () => {
    const { store } = restock.repositories
    await store.setJSON('snapshots/notify', { records: [{ email: 'old@example.test' }] })
    await store.setJSON('index/notif-history/v1/p/all', { format: 1, entries: {} })
    await store.set(
      'index-deltas/notif-history/all/000000000000001-a~bm90aWYtaGlzdG9yeTpub3RpZl94',
      '',
    )
    for (let entry = 0; entry < 3; entry++) {
      await store.set(`journal/notify/2026-01-01T00/${entry}-a~bm90aWZ5`, '')
    }
    const summary = await purgeAt(T0)
    expect(summary.legacyListing).toBeGreaterThanOrEqual(6)
    for (const prefix of [
      'snapshots/',
      'journal/',
      'index/notif-history/v1/',
      'index-deltas/notif-history/all/',
    ]) {
      expect((await store.list({ prefix })).blobs).toEqual([])
    }
  })

  it('deletes Idempotency-Key marks once their day and the next have passed', async () => {
    const { idempotencyKeys } = restock.repositories
    const old = await idempotencyKeys.begin('reservation', `key-${crypto.randomUUID()}`, 'f', T0)
    const recent = `key-${crypto.randomUUID()}`
    const kept = await idempotencyKeys.begin('reservation', recent, 'f', T0 + DAY)
    expect([old.state, kept.state]).toEqual(['new', 'new'])
    if (kept.state === 'new') await kept.finish({ reservationId: 'res_kept' })
    const summary = await purgeAt(T0 + 2 * DAY)
    expect(summary.idempotencyKeys).toBeGreaterThanOrEqual(1)
    const day = (ms: number) => at(ms).slice(0, 10)
    const { blobs } = await restock.repositories.store.list({ prefix: 'idempotency-keys/' })
    expect(blobs.some(({ key }) => key.includes(`/${day(T0)}/`))).toBe(false)
    expect(await idempotencyKeys.begin('reservation', recent, 'f', T0 + 2 * DAY)).toEqual({
      state: 'answered',
      answer: { reservationId: 'res_kept' },
    })
  })

  it('deletes the marks of LINE Login states spent more than a day ago, once', async () => {
    const { lineContacts, store } = restock.repositories
    const old = `state-${crypto.randomUUID()}`
    const recent = `state-${crypto.randomUUID()}`
    expect(await lineContacts.spendLoginState(old, T0)).toBe(true)
    expect(await lineContacts.spendLoginState(recent, T0 + DAY)).toBe(true)
    await store.set('line-login-states/damaged', 'not json')
    const mark = (nonce: string) => store.get(`line-login-states/${nonce}`)

    // a day after the first: it is kept until more than a day has passed; an unreadable mark
    // protects nothing and goes at once
    expect((await purgeAt(T0 + DAY)).lineLoginStates).toBe(1)
    expect(await mark('damaged')).toBeNull()
    expect(await mark(old)).not.toBeNull()
    expect((await purgeAt(T0 + DAY + 1)).lineLoginStates).toBe(1)
    expect(await mark(old)).toBeNull()
    expect(await mark(recent)).not.toBeNull()
    // a replay of the kept one is still refused; the purge run again deletes nothing more
    expect(await lineContacts.spendLoginState(recent, T0 + DAY + 2)).toBe(false)
    expect((await purgeAt(T0 + DAY + 1)).lineLoginStates).toBe(0)
  })
})
