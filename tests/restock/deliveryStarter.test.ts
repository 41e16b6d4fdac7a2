import { describe, expect, it } from 'vitest'
import { createLogger } from '../../src/lib/log.js'
import { DeliveryStartError, deliveryStarter } from '../../src/lib/restock/deliveryStarter.js'
import { captureLogs } from '../helpers/logs.js'

function trigger(fetchStub: typeof fetch, deferred: Promise<unknown>[] = []) {
  return deliveryStarter({
    origin: 'https://shop.example.test',
    ticketFor: (notificationId) => `ticket-for-${notificationId}`,
    log: createLogger('test'),
    defer: (work) => deferred.push(work),
    acceptWaitMs: 5,
    fetch: fetchStub,
  })
}

describe('starting the background delivery', () => {
  it('POSTs the notification id to the background function with a ticket for it', async () => {
    const calls: [URL, RequestInit][] = []
    const start = trigger(async (url, init) => {
      calls.push([url as URL, init!])
      return new Response(null, { status: 202 })
    })
    await start('notif_1')
    expect(String(calls[0][0])).toBe(
      'https://shop.example.test/.netlify/functions/notify-deliver-background',
    )
    expect(calls[0][1].method).toBe('POST')
    expect(new Headers(calls[0][1].headers).get('authorization')).toBe('Bearer ticket-for-notif_1')
    expect(JSON.parse(String(calls[0][1].body))).toEqual({ notificationId: 'notif_1' })
  })

  it('rejects with DeliveryStartError when the platform refuses or cannot be reached', async () => {
    await expect(trigger(async () => new Response('no', { status: 404 }))('n')).rejects.toThrow(
      DeliveryStartError,
    )
    await expect(
      trigger(async () => {
        throw new TypeError('fetch failed')
      })('n'),
    ).rejects.toThrow(DeliveryStartError)
  })

  it('treats a call still under way (the local emulation answers late) as started and defers it', async () => {
    const logs = captureLogs()
    let fail: (error: Error) => void = () => undefined
    const deferred: Promise<unknown>[] = []
    const start = trigger(() => new Promise<Response>((_, reject) => (fail = reject)), deferred)
    await start('notif_late')
    expect(deferred).toHaveLength(1)
    fail(new Error('late failure'))
    await deferred[0]
    const lines = logs.filter((line) => line.level !== 'info')
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: 'restock.delivery.start_failed_late',
        notificationId: 'notif_late',
      }),
    )
  })
})
