import { describe, expect, it } from 'vitest'
import { useRestockDevServer } from '../helpers/restockDevServer.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

/**
 * A restock delivery that continues across invocations of the background function,
 * over `npm start`. DELIVERY_BUDGET_MS=1 makes every invocation settle one batch and start the
 * next, so 23 recipients take three invocations; every one gets exactly one e-mail, and the
 * progress the dashboard polls stays consistent all along.
 */

const PRODUCT = 'mizudashi-coffee-bottle'
const RECIPIENTS = 23
const e2e = useRestockDevServer({ DELIVERY_BUDGET_MS: '1' })

interface Progress {
  recipients: number
  sentCount: number
  failedCount: number
  pendingCount: number
  state: string
}

describe('a delivery across invocations, end to end over HTTP', () => {
  it('e-mails every recipient exactly once, the progress only moving forward', async () => {
    const emails = Array.from({ length: RECIPIENTS }, (_, i) => `relay-${i}@example.jp`)
    for (const email of emails) {
      const signup = await e2e.server.postJson('/api/notify-signup', {
        email,
        productSlug: PRODUCT,
      })
      expect(signup.status).toBe(200)
    }

    const sent = await e2e.server.postJson(
      '/api/admin/notify/send',
      { productSlug: PRODUCT, emailTitle: '水出しボトル再入荷', emailBody: 'お待たせしました。' },
      ADMIN_TOKEN,
    )
    expect(sent.status).toBe(200)
    const notificationId = sent.body.notificationId as string
    expect(sent.body.recipientEmails).toHaveLength(RECIPIENTS)

    const polls: Progress[] = []
    for (let attempt = 0; attempt < 120 && polls.at(-1)?.state !== 'complete'; attempt++) {
      const answer = await e2e.server.postJson(
        '/api/admin/notify/history',
        { notificationId },
        ADMIN_TOKEN,
      )
      expect(answer.status).toBe(200)
      polls.push(answer.body.notifications[0])
      if (polls.at(-1)?.state !== 'complete') await new Promise((r) => setTimeout(r, 500))
    }

    const last = polls.at(-1)!
    expect(last).toMatchObject({
      state: 'complete',
      recipients: RECIPIENTS,
      sentCount: RECIPIENTS,
      failedCount: 0,
      pendingCount: 0,
    })
    for (const [index, poll] of polls.entries()) {
      expect(poll.recipients).toBe(RECIPIENTS)
      expect(poll.sentCount + poll.failedCount + poll.pendingCount).toBe(RECIPIENTS)
      if (index > 0) expect(poll.sentCount).toBeGreaterThanOrEqual(polls[index - 1].sentCount)
      // 配信完了 (complete) only at the end, and only with everyone settled
      if (poll.state === 'complete') expect(poll.pendingCount).toBe(0)
    }
    expect(polls.slice(0, -1).every((poll) => poll.state !== 'complete')).toBe(true)

    const batches = e2e.resend.requests.filter((request) => request.path === '/emails/batch')
    const to = batches.flatMap((request) =>
      (request.json as { to: string[] | string }[]).map((e) => [e.to].flat()[0]),
    )
    expect(to.sort()).toEqual([...emails].sort())
    expect(batches).toHaveLength(3)
    // each invocation settled one batch and started the next: two continuations
    expect(e2e.server.output().match(/restock\.delivery\.continuing/g)).toHaveLength(2)
  }, 240_000)
})
