import { describe, expect, it } from 'vitest'
import * as notifyArchivesList from '../../netlify/functions/admin-notify-archives-list.js'
import * as notifyHistory from '../../netlify/functions/admin-notify-history.js'
import * as notifyList from '../../netlify/functions/admin-notify-list.js'
import * as notifyResume from '../../netlify/functions/admin-notify-resume.js'
import * as reservationsArchivesList from '../../netlify/functions/admin-reservations-archives-list.js'
import * as reservationsList from '../../netlify/functions/admin-reservations-list.js'
import * as stats from '../../netlify/functions/admin-stats.js'
import { clearInstanceIndexes } from '../../src/lib/storage/recordCollection.js'
import type { NotificationHistory } from '../../src/lib/storage/records.js'
import { endpoint, isolatedScope, settleScopes } from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { useApiTokens } from '../helpers/tokens.js'

/**
 * Every blob type the service writes to the records store, damaged in every way a blob can be
 * (cut short, garbage, 0 bytes, JSON of another shape): each whole-store view still answers 200
 * with the readable records; a damaged index blob (a partition's base, a delta) is logged,
 * ignored and rebuilt; a damaged record is reported like other unreadable records
 * (tests/admin/unreadableRecords.test.ts).
 */

useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
const logs = useLogCapture()

const PRODUCT = 'hario-v60-dripper'
const BASES = [
  `index/reservations/v1/p/${PRODUCT}`,
  `index/notify/v1/p/${PRODUCT}`,
  'index/notif-history/v2/p/other',
]

/** Damage of a blob that held `text`. */
const DAMAGE: [string, (text: string) => string][] = [
  ['cut short', (text) => text.slice(0, Math.floor(text.length / 2))],
  ['garbage', () => '\u0000\u00ff garbage \ud800'],
  ['0 bytes', () => ''],
  ['JSON null', () => 'null'],
  ['the current format without its fields', () => '{"format":1}'],
  ['entries of another shape', () => '{"format":1,"entries":{"reservations/x/y":null}}'],
]

const views = {
  reservations: endpoint(reservationsList, 'admin'),
  subscriptions: endpoint(notifyList, 'admin'),
  stats: endpoint(stats, 'admin'),
  reservationArchives: endpoint(reservationsArchivesList, 'preorder'),
  subscriptionArchives: endpoint(notifyArchivesList, 'preorder'),
  history: endpoint(notifyHistory, 'admin'),
}

function historyRecord(id: string): NotificationHistory {
  return {
    id,
    productSlug: PRODUCT,
    emailTitle: '再入荷',
    emailBody: '入荷しました',
    recipientEmails: ['a@example.com'],
    sentCount: 1,
    timestamp: '2026-11-01T00:00:00.000Z',
    status: 'sent',
    failedRecipients: [],
    deliveryState: 'delivering',
    deliveryMode: 'email',
  }
}

/** A scope with 3 reservations (1 archived), 2 subscriptions and one notice; `warm`: its views called once. */
async function seededScope(warm = true) {
  const scope = isolatedScope()
  await scope.seedReservation({ productSlug: PRODUCT })
  await scope.seedReservation({ productSlug: PRODUCT })
  await scope.seedReservation({
    productSlug: PRODUCT,
    isArchived: true,
    archivedAt: '2026-11-02T00:00:00.000Z',
  } as never)
  await scope.seedSubscription({ productSlug: PRODUCT })
  await scope.seedSubscription({ productSlug: PRODUCT })
  await scope.repositories.history.create({ id: 'notif_one' }, historyRecord('notif_one'))
  if (warm) await expectViewsAnswer(scope)
  return scope
}

/** `rebuilding: false`: no answer may say an index is being rebuilt. */
async function expectViewsAnswer(
  scope: ReturnType<typeof isolatedScope>,
  { rebuilding = true } = {},
) {
  const reservations = await scope.call(views.reservations, {})
  expect(reservations.status).toBe(200)
  if (!rebuilding) expect(reservations.body.rebuilding).toBeUndefined()
  expect(reservations.body.reservations).toHaveLength(2)
  const subscriptions = await scope.call(views.subscriptions, {})
  expect(subscriptions.status).toBe(200)
  expect(subscriptions.body.subscriptions).toHaveLength(2)
  const statistics = await scope.call(views.stats)
  expect(statistics.status).toBe(200)
  if (!rebuilding) expect(statistics.body.rebuilding).toBeUndefined()
  expect(statistics.body.stats.reservations.total).toBe(3)
  expect(statistics.body.stats.notify.total).toBe(2)
  const reservationArchives = await scope.call(views.reservationArchives, {})
  expect(reservationArchives).toMatchObject({ status: 200, body: { total: 1 } })
  const subscriptionArchives = await scope.call(views.subscriptionArchives, {})
  expect(subscriptionArchives).toMatchObject({ status: 200, body: { total: 0 } })
  const history = await scope.call(views.history, {})
  expect(history.status).toBe(200)
  expect(history.body.notifications ?? history.body.items).toHaveLength(1)
}

function loggedEvents(): string[] {
  return logs.flatMap((line) => (typeof line.event === 'string' ? [line.event] : []))
}

describe('a damaged index base (each kind of damage)', () => {
  it.each(DAMAGE)(
    '%s: every whole-store view answers 200, the damage is logged and the base rebuilt',
    async (_, damage) => {
      const scope = await seededScope()
      for (const key of BASES) {
        const text = (await scope.store.get(key, { type: 'text' })) ?? ''
        expect(text).not.toBe('')
        await scope.store.set(key, damage(text))
      }
      clearInstanceIndexes() // a cold instance reads the damaged blobs
      logs.length = 0

      await expectViewsAnswer(scope)

      expect(loggedEvents()).toContain('storage.index_damaged')
      await expectViewsAnswer(scope)
      for (const key of BASES) {
        const rebuilt = (await scope.store.get(key, { type: 'json' })) as { format: number }
        expect(rebuilt.format).toBe(1)
      }
      clearInstanceIndexes()
      await expectViewsAnswer(scope, { rebuilding: false })
    },
  )
})

describe('damaged index deltas', () => {
  it('garbage names, undecodable record keys and keys of other blobs are ignored', async () => {
    const scope = await seededScope()
    const at = String(Date.now()).padStart(15, '0')
    const garbageNames = [
      'garbage',
      `${at}-x~`,
      `${at}-x~${Buffer.from('\u0000\ud800').toString('base64url')}`,
      `${at}-x~${Buffer.from('index/reservations/v1/complete').toString('base64url')}`,
      `${at}-x~${Buffer.from('/reservations/x/y').toString('base64url')}`,
      `${at}-x~${Buffer.from('reservations/another-product/res_1').toString('base64url')}`,
    ]
    for (const [collection, partition] of [
      ['reservations', PRODUCT],
      ['notify', PRODUCT],
      ['notif-history', 'other'],
    ]) {
      for (const name of garbageNames) {
        await scope.store.set(`index-deltas/${collection}/${partition}/${name}`, 'garbage \u0000')
      }
      await scope.store.set(`index-deltas/${collection}/${partition}/a/b/c`, '')
    }
    clearInstanceIndexes()
    logs.length = 0
    await expectViewsAnswer(scope, { rebuilding: false })
    expect(loggedEvents()).not.toContain('storage.record_unreadable')
    expect(loggedEvents()).toContain('storage.index_damaged')
  })
})

describe('damaged records, claims and delivery blobs', () => {
  it.each(DAMAGE)('%s: the views answer 200 and report unreadable records', async (_, damage) => {
    const scope = await seededScope(false)
    const [{ key: recordKey }] = (await scope.store.list({ prefix: 'reservations/' })).blobs
    const text = (await scope.store.get(recordKey, { type: 'text' }))!
    await scope.store.set(`reservations/${PRODUCT}/res_damaged`, damage(text))
    await scope.store.set(`notify/${PRODUCT}/ntf_1-damaged`, damage(text))
    await scope.store.set('notif-history:notif_damaged', damage(text))
    const { blobs: claims } = await scope.store.list({ prefix: 'reservation-claims/' })
    for (const { key } of claims) await scope.store.set(key, damage('{"holderId":"x"}'))
    const job = JSON.stringify({ notificationId: 'notif_one', recipients: [] })
    await scope.store.set('notif-delivery/notif_one/job', damage(job))
    await scope.store.set('notif-delivery/notif_one/batches/0', damage(job))
    await scope.store.set('notif-delivery/notif_one/notified/0', damage('{"batch":0}'))
    clearInstanceIndexes()

    const reservations = await scope.call(views.reservations, {})
    expect(reservations).toMatchObject({ status: 200, body: { unreadable: 1 } })
    expect(reservations.body.reservations).toHaveLength(2)
    const statistics = await scope.call(views.stats)
    expect(statistics.status).toBe(200)
    expect(statistics.body.stats.reservations).toMatchObject({ total: 3, unreadable: 1 })
    expect(statistics.body.stats.notify).toMatchObject({ total: 2, unreadable: 1 })
    const history = await scope.call(views.history, {})
    expect(history.status).toBe(200)
    const resume = await scope.call(endpoint(notifyResume, 'admin'), {
      notificationId: 'notif_one',
    })
    // why: the progress is read before the provider check; no provider here answers 503
    expect(resume).toMatchObject({
      status: 503,
      body: { error: 'Email delivery is not configured' },
    })
    for (const archives of [views.reservationArchives, views.subscriptionArchives]) {
      expect((await scope.call(archives, {})).status).toBe(200)
    }
  })
})
