import { describe, expect, it } from 'vitest'
import { useRestockDevServer } from '../helpers/restockDevServer.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

const PRODUCT = 'nambu-tekki-kettle'
const e2e = useRestockDevServer()

function restockEmailsTo(address: string) {
  return e2e.resend.requests
    .flatMap((request) => (Array.isArray(request.json) ? request.json : [request.json]))
    .filter(
      (email) =>
        email && [email.to].flat().includes(address) && /unsubscribe/i.test(JSON.stringify(email)),
    )
}

describe('a restock notification, end to end over HTTP', () => {
  it('signs up, lists, sends, marks notified and unsubscribes through the e-mailed link', async () => {
    const email = `e2e-${Date.now()}@example.jp`
    const signup = await e2e.server.postJson('/api/notify-signup', { email, productSlug: PRODUCT })
    expect(signup.status).toBe(200)
    const id = signup.body.subscriptionId as string
    expect(id).toMatch(/^ntf_\d+-/)

    const again = await e2e.server.postJson('/api/notify-signup', {
      email: email.toUpperCase(),
      productSlug: PRODUCT,
    })
    expect(again.body.subscriptionId).toBe(id)

    const listed = await e2e.server.postJson(
      '/api/admin-notify-list',
      { productSlug: PRODUCT, status: 'pending' },
      ADMIN_TOKEN,
    )
    expect(listed.body.subscriptions.map((s: { id: string }) => s.id)).toContain(id)

    const sent = await e2e.server.postJson(
      '/api/admin/notify/send',
      {
        productSlug: PRODUCT,
        emailTitle: '南部鉄器の鉄瓶が再入荷しました',
        emailBody: 'お待たせしました。',
      },
      ADMIN_TOKEN,
    )
    expect(sent.status).toBe(200)
    expect(sent.body).toMatchObject({
      success: true,
      notificationId: expect.stringMatching(/^notif_/),
    })
    expect(sent.body.recipientEmails).toContain(email)

    let subscription: { status: string } | undefined
    for (let attempt = 0; attempt < 60 && subscription?.status !== 'notified'; attempt++) {
      const notified = await e2e.server.postJson(
        '/api/admin-notify-list',
        { productSlug: PRODUCT },
        ADMIN_TOKEN,
      )
      subscription = notified.body.subscriptions.find((s: { id: string }) => s.id === id)
      if (subscription?.status !== 'notified') await new Promise((r) => setTimeout(r, 500))
    }
    expect(subscription?.status).toBe('notified')

    const [restockEmail] = restockEmailsTo(email)
    expect(restockEmail).toBeDefined()
    const link = /https?:\/\/[^\s"<>]+\/api\/notify-unsubscribe\?token=[A-Za-z0-9._~%-]+/.exec(
      JSON.stringify(restockEmail),
    )?.[0]
    expect(link).toBeDefined()
    // locally, links name the address actually served (a free port here), not :8888
    expect(link!.startsWith(`${e2e.server.url}/api/notify-unsubscribe?token=`)).toBe(true)
    const path = new URL(link!).pathname + new URL(link!).search

    const page = await fetch(`${e2e.server.url}${path}`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    const stillNotified = await e2e.server.postJson(
      '/api/admin-notify-list',
      { productSlug: PRODUCT },
      ADMIN_TOKEN,
    )
    expect(stillNotified.body.subscriptions.find((s: { id: string }) => s.id === id).status).toBe(
      'notified',
    )

    const oneClick = await fetch(`${e2e.server.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(oneClick.status).toBe(200)
    const after = await e2e.server.postJson(
      '/api/admin-notify-list',
      { productSlug: PRODUCT },
      ADMIN_TOKEN,
    )
    expect(after.body.subscriptions.find((s: { id: string }) => s.id === id).status).toBe(
      'unsubscribed',
    )
    // why: a dozen requests to a dev server that rebuilds the function on every call (0.8–1.5 s
    // each, more when the machine is busy); 30 s was too tight under a full `npm test`
  }, 120_000)
})
