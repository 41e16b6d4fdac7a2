import { describe, expect, it } from 'vitest'
import { postStockEvent } from '../../platform/stockSender.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { holdsOf } from '../../src/lib/storage/restockHolds.js'
import { useRestockDevServer } from '../helpers/restockDevServer.js'
import { withDevServerBlobs } from '../helpers/seedDevServer.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

/**
 * Holds (お取り置き) end to end over HTTP (npm start, a local Resend stand-in): a signed stock
 * webhook raises the stock, the wave's e-mails carry hold links, a shopper claims one over HTTP.
 * The server runs on the wall clock, so time passing is played by moving the stored times back
 * (the other hold's end, the next wave's due time) before the scheduled sweep runs.
 */

const STOCK_SECRET = 'e2e-holds-stock-secret'
const PRODUCT = 'kalita-wave-server'
const HOUR = 60 * 60 * 1000
const running = useRestockDevServer({ STOCK_WEBHOOK_SECRET: STOCK_SECRET, QUIET_HOURS: 'off' })

function holdEmails(): { to: string; link: string | null }[] {
  return running.resend.requests
    .filter((request) => request.path.startsWith('/emails/batch'))
    .flatMap((request) => request.json as { to: string; text: string }[])
    .map((email) => ({
      to: [email.to].flat()[0],
      link: /24時間お取り置き: (\S+)/.exec(email.text)?.[1] ?? null,
    }))
}

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000
  let value = await read()
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    value = await read()
  }
  return value
}

async function claim(link: string, name = '佐藤 一郎') {
  const url = new URL(link)
  const response = await fetch(`${running.server.url}${url.pathname}${url.search}`, {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ name }),
  })
  return { status: response.status, body: await response.json() }
}

async function stockRow() {
  const list = await running.server.postJson('/api/admin/stock/list', {}, ADMIN_TOKEN)
  return (list.body.stock as { productSlug: string }[]).find((r) => r.productSlug === PRODUCT) as
    Record<string, any> | undefined
}

describe('holds end to end over HTTP (npm start, a local Resend stand-in)', () => {
  it('0 → 2 with 5 waiting: 2 hold links; a claim; the same claim; a forged link; the other hold ends and goes to the 3rd', async () => {
    const { server } = running
    const emails = Array.from({ length: 5 }, (_, i) => `hold-${i}@example.jp`)
    for (const email of emails) {
      expect(
        (await server.postJson('/api/notify-signup', { email, productSlug: PRODUCT })).status,
      ).toBe(200)
      // why: sign-ups one after another, so their order is the order of the list
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const auto = await server.postJson(
      '/api/admin/notify/auto',
      {
        productSlug: PRODUCT,
        enabled: true,
        emailTitle: '{product} 再入荷しました',
        emailBody: 'ご購入はこちら: {url}',
        intervalMinutes: 10,
        holdHours: 24,
      },
      ADMIN_TOKEN,
    )
    expect(auto).toMatchObject({ status: 200, body: { auto: { holdHours: 24 } } })
    const event = (id: string, quantity: number) =>
      postStockEvent(server.url, STOCK_SECRET, { id, items: [{ productSlug: PRODUCT, quantity }] })
    expect((await event('evt_hold_0', 0)).status).toBe(200)
    expect((await event('evt_hold_1', 2)).status).toBe(200)

    const sent = await until(holdEmails, (found) => found.length >= 2)
    expect(sent.map((email) => email.to)).toEqual(emails.slice(0, 2))
    expect(
      sent.every((email) => email.link?.startsWith(`${server.url}/reservation/hold?token=`)),
    ).toBe(true)
    await until(stockRow, (row) => row?.holds.open === 2)

    const first = await claim(sent[0].link!)
    expect(first).toMatchObject({ status: 200, body: { success: true, alreadyReserved: false } })
    const again = await claim(sent[0].link!)
    expect(again.body).toEqual({ ...first.body, alreadyReserved: true })
    const found = await server.postJson(
      '/api/admin/reservations/find',
      { id: first.body.reservationId },
      ADMIN_TOKEN,
    )
    expect(found.body.reservation).toMatchObject({
      email: emails[0],
      name: '佐藤 一郎',
      quantity: 1,
      source: 'restock-hold',
    })
    expect(await stockRow()).toMatchObject({ quantity: 1, holds: { open: 1, claimed: 1 } })

    const forged = new URL(sent[1].link!)
    const token = forged.searchParams.get('token')!
    forged.searchParams.set('token', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)
    expect((await claim(forged.href)).status).toBe(403)

    // a day passes: the second hold's end and the next wave are moved into the past
    await withDevServerBlobs(server.root, async (context) => {
      await openRepositories(context).stock.change({ productSlug: PRODUCT }, (current) => {
        const holds = { ...holdsOf(current) }
        for (const [id, hold] of Object.entries(holds)) {
          if (hold.state === 'open')
            holds[id] = { ...hold, endsAt: new Date(Date.now() - HOUR).toISOString() }
        }
        return {
          ...current,
          holds,
          waves: { ...current.waves, dueAt: new Date(Date.now() - HOUR).toISOString() },
        }
      })
    })
    expect((await claim(sent[1].link!)).status).toBe(410)
    const sweep = async () => {
      const response = await fetch(`${server.url}/.netlify/functions/stock-reconcile`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      })
      return { status: response.status, text: await response.text() }
    }
    expect((await sweep()).status).toBe(200)
    const third = await until(holdEmails, (all) => all.length >= 3)
    expect(third.map((email) => email.to)).toEqual(emails.slice(0, 3))
    expect(third[2].link).not.toBeNull()
    expect(await until(stockRow, (row) => row?.holds.open === 1)).toMatchObject({
      quantity: 1,
      holds: { open: 1, claimed: 1, expired: 1 },
    })
  }, 240_000)
})
