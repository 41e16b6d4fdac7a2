import { describe, expect, it } from 'vitest'
import { chooseRecipients } from '../../src/lib/restock/recipientChoice.js'
import type { NotificationHistory } from '../../src/lib/storage/records.js'
import { SEND_LOCK_EXPIRY_MS } from '../../src/lib/storage/sendClaims.js'
import { seedMany } from '../restock/restockTestKit.js'
import { PRODUCT, useStockEnvironment } from './stockTestKit.js'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)

function historyOf(id: string, finished: boolean): NotificationHistory {
  return {
    id,
    productSlug: PRODUCT,
    emailTitle: 't',
    emailBody: 'b',
    recipientEmails: [],
    sentCount: 0,
    timestamp: new Date(NOW).toISOString(),
    status: 'sent',
    failedRecipients: [],
    deliveryState: finished ? 'complete' : 'delivering',
  }
}

describe('chooseRecipients (send lock and claims, on a real Blobs server)', () => {
  const world = useStockEnvironment()
  const sources = () => {
    const repositories = world.repositories()
    return {
      sendClaims: repositories.sendClaims,
      subscriptions: repositories.subscriptions,
      history: repositories.history,
      isFinished: (history: NotificationHistory) => history.deliveryState === 'complete',
    }
  }
  const choose = (notificationId: string, limit?: number, now = NOW) =>
    chooseRecipients({ productSlug: PRODUCT, notificationId, limit, now }, sources())

  it('refuses a second, different send while the first holds the lock; the same notice goes on', async () => {
    await seedMany(world.repositories(), 3, { productSlug: PRODUCT })
    const first = await choose('notif_a')
    expect(first.state).toBe('chosen')
    expect((await choose('notif_b')).state).toBe('busy')
    const same = await choose('notif_a')
    expect(same.state === 'chosen' && same.subscribers.length).toBe(3)
    if (first.state === 'chosen') await first.release()
    const after = await choose('notif_b')
    // why: notif_a's notice is not stored and its claims are young: they still hold
    expect(after.state === 'chosen' && after.subscribers.length).toBe(0)
  })

  it('takes a lock over once it is older than a function may run', async () => {
    await choose('notif_a')
    expect((await choose('notif_b', undefined, NOW + SEND_LOCK_EXPIRY_MS - 1)).state).toBe('busy')
    expect((await choose('notif_b', undefined, NOW + SEND_LOCK_EXPIRY_MS)).state).toBe('chosen')
  })

  it('gives a wave the oldest pending subscribers up to its limit; a finished notice holds nobody', async () => {
    const seeded = await seedMany(world.repositories(), 5, { productSlug: PRODUCT })
    const wave1 = await choose('notif_w1', 2)
    if (wave1.state !== 'chosen') throw new Error('busy')
    expect(wave1.subscribers.map((s) => s.id)).toEqual(seeded.slice(0, 2).map((s) => s.id))
    await wave1.release()
    await world.repositories().history.create({ id: 'notif_w1' }, historyOf('notif_w1', false))
    // while wave 1 delivers, its people are its own
    const during = await choose('notif_w2', 10)
    if (during.state !== 'chosen') throw new Error('busy')
    expect(during.subscribers.map((s) => s.id)).toEqual(seeded.slice(2).map((s) => s.id))
    await during.release()
    // delivered: the first is notified; the second stayed pending (not reached, or set back to
    // 未通知 by staff), so the next wave takes them
    const { history, subscriptions } = world.repositories()
    await history.update({ id: 'notif_w1' }, (h) => ({ ...h, deliveryState: 'complete' }))
    await subscriptions.update(seeded[0], (s) => ({ ...s, status: 'notified' }))
    const wave3 = await choose('notif_w3', 10)
    if (wave3.state !== 'chosen') throw new Error('busy')
    expect(wave3.subscribers.map((s) => s.id)).toEqual([seeded[1].id])
  })

  it('lets a send take over claims of finished notices, not of open ones', async () => {
    await seedMany(world.repositories(), 4, { productSlug: PRODUCT })
    const { history } = world.repositories()
    const open = await choose('notif_open', 2)
    if (open.state !== 'chosen') throw new Error('busy')
    await open.release()
    await history.create({ id: 'notif_open' }, historyOf('notif_open', false))
    const manual = await choose('notif_manual')
    if (manual.state !== 'chosen') throw new Error('busy')
    expect(manual.subscribers).toHaveLength(2)
    await manual.release()
    await history.update({ id: 'notif_open' }, (h) => ({ ...h, deliveryState: 'complete' }))
    const again = await choose('notif_manual_2')
    expect(again.state === 'chosen' && again.subscribers.length).toBe(2)
  })
})
