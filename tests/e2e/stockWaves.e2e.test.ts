import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { postStockEvent } from '../../platform/stockSender.js'

const ADMIN = 'e2e-stock-admin-token'
const SECRET = 'e2e-stock-webhook-secret'
const PRODUCT = 'porlex-hand-grinder'
const SKU = 'SKU-1007'
let server: RunningDevServer
let resend: RecordingServer

beforeAll(async () => {
  resend = await startRecordingServer()
  server = await startDevServer({
    ADMIN_API_TOKEN: ADMIN,
    PREORDER_API_TOKEN: '',
    RESEND_API_KEY: 're_test_key',
    RESEND_FROM_EMAIL: 'shop@example.jp',
    RESEND_BASE_URL: resend.url,
    UNSUBSCRIBE_SECRET: 'e2e-unsubscribe-secret',
    STOCK_WEBHOOK_SECRET: SECRET,
  })
})
afterAll(async () => {
  await server?.stop()
  await resend?.close()
})

const stockEvent = (id: string, quantity: number) =>
  postStockEvent(server.url, SECRET, { id, items: [{ sku: SKU, quantity }] })

function batchEmails(): { to: string; subject: string }[] {
  return resend.requests
    .filter((request) => request.path.startsWith('/emails/batch'))
    .flatMap((request) => request.json as { to: string; subject: string }[])
}

describe('stock in, a wave out, end to end over HTTP (npm start, a local Resend stand-in)', () => {
  it('a signed webhook raising the stock from 0 to 2 e-mails the 2 oldest subscribers', async () => {
    const emails = Array.from({ length: 5 }, (_, i) => `wave-${i}@example.jp`)
    for (const email of emails) {
      const signup = await server.postJson('/api/notify-signup', { email, productSlug: PRODUCT })
      expect(signup.status).toBe(200)
    }
    const auto = await server.postJson(
      '/api/admin/notify/auto',
      {
        productSlug: PRODUCT,
        enabled: true,
        emailTitle: '{product} 再入荷しました',
        emailBody: 'ご購入はこちら: {url}',
      },
      ADMIN,
    )
    expect(auto.status).toBe(200)
    expect((await stockEvent('evt_e2e_0', 0)).status).toBe(200)
    const raised = await stockEvent('evt_e2e_1', 2)
    expect(raised).toMatchObject({ status: 200, body: { success: true, duplicate: false } })

    const deadline = Date.now() + 60_000
    while (batchEmails().length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const sent = batchEmails()
    expect(sent.map((email) => [email.to].flat()[0]).sort()).toEqual(emails.slice(0, 2).sort())
    expect(sent[0].subject).toBe('Porlex セラミック手挽きミル Mini II 再入荷しました')

    expect(await stockEvent('evt_e2e_1', 2)).toMatchObject({ body: { duplicate: true } })
    // why: the delivery marks them notified once the stand-in accepted their batch
    let row: Record<string, unknown> | undefined
    while (Date.now() < deadline) {
      const list = await server.postJson('/api/admin/stock/list', {}, ADMIN)
      row = (list.body.stock as { productSlug: string }[]).find((r) => r.productSlug === PRODUCT)
      if (row?.waiting === 3) break
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(row).toMatchObject({ quantity: 2, waiting: 3 })
    expect(row).toHaveProperty('nextWaveAt', expect.any(String))
  }, 180_000)
})
