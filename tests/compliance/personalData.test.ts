import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import eraseModule from '../../netlify/functions/admin-people-erase.js'
import exportModule from '../../netlify/functions/admin-people-export.js'
import deliverModule from '../../netlify/functions/notify-deliver-background.js'
import sendModule from '../../netlify/functions/admin-notify-send.js'
import signupModule from '../../netlify/functions/notify-signup.js'
import reservationModule from '../../netlify/functions/reservation.js'
import webhookModule from '../../netlify/functions/resend-webhook.js'
import { openStore } from '../../src/lib/storage/blobStore.js'
import { RECORDS_STORE } from '../../src/lib/storage/blobLayout.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import { logText, useLogCapture } from '../helpers/logs.js'
import { ADMIN_TOKEN, useApiTokens } from '../helpers/tokens.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { SEND_CONFIG, resendReply, SECRET, startSite } from '../restock/restockTestKit.js'
import {
  filesHolding,
  post,
  PRODUCT,
  signedWebhook,
  WEBHOOK_SECRET,
  WEBHOOK_URL,
} from './complianceTestKit.js'

const ERASED = 'erase-me@example.test'
const KEPT = 'keep-me@example.test'

const blobs = useBlobsServer()
const logs = useLogCapture()
useApiTokens()
let resend: RecordingServer
let site: Awaited<ReturnType<typeof startSite>>

beforeAll(async () => {
  resend = await startRecordingServer()
  resend.reply = resendReply()
  site = await startSite(deliverModule)
})

afterAll(async () => {
  await site.close()
  await resend.close()
})

beforeEach(() => {
  Object.assign(process.env, {
    UNSUBSCRIBE_SECRET: SECRET,
    RESEND_API_KEY: 're_test_key',
    RESEND_FROM_EMAIL: 'Shop <shop@example.test>',
    RESEND_BASE_URL: resend.url,
    RESEND_WEBHOOK_SECRET: WEBHOOK_SECRET,
    SITE_URL: 'https://shop.example.test',
    SHOP_NAME: SEND_CONFIG.shopName,
    SHOP_ADDRESS: SEND_CONFIG.shopAddress,
    SHOP_CONTACT: SEND_CONFIG.shopContact,
  })
})

function complain(email: string) {
  const event = {
    type: 'email.complained',
    created_at: '2026-11-22T05:00:00.000Z',
    data: { to: [email] },
  }
  return webhookModule(signedWebhook(WEBHOOK_URL, event), fakeContext())
}

describe('POST /api/admin/people/export and /erase', () => {
  it('exports everything about an address, then erases it from every blob', async () => {
    for (const email of [ERASED, KEPT]) {
      const reserved = await post(reservationModule, '/api/reservation', {
        name: '消去 太郎',
        email,
        productSlug: 'chasen-takayama',
      })
      expect(reserved.status).toBe(200)
      const signedUp = await post(signupModule, '/api/notify-signup', {
        email,
        productSlug: PRODUCT,
      })
      expect(signedUp.status).toBe(200)
    }
    const sent = await post(
      sendModule,
      '/api/admin/notify/send',
      { productSlug: PRODUCT, emailTitle: '再入荷しました', emailBody: '入荷しました。' },
      { token: ADMIN_TOKEN, base: site.url },
    )
    expect(sent.status).toBe(200)
    expect(sent.body.recipientEmails).toEqual(expect.arrayContaining([ERASED, KEPT]))
    await site.idle()
    expect((await complain(ERASED)).status).toBe(200)
    expect(await filesHolding(blobs.directory, ERASED)).not.toEqual([])

    const exported = await post(
      exportModule,
      '/api/admin/people/export',
      { email: ' Erase-Me@Example.test ' },
      { token: ADMIN_TOKEN },
    )
    expect(exported.status).toBe(200)
    expect(Object.keys(exported.body).sort()).toEqual(
      [
        'consents',
        'email',
        'notices',
        'orders',
        'reservations',
        'subscriptions',
        'success',
        'suppressed',
      ].sort(),
    )
    expect(exported.body).toMatchObject({
      success: true,
      email: ERASED,
      reservations: [{ email: ERASED, productSlug: 'chasen-takayama', name: '消去 太郎' }],
      subscriptions: [{ email: ERASED, productSlug: PRODUCT, status: 'notified' }],
      notices: [{ notificationId: sent.body.notificationId, productSlug: PRODUCT }],
      suppressed: true,
    })
    expect(exported.body.notices[0].sentAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(exported.body.consents.map((c: { kind: string }) => c.kind).sort()).toEqual([
      'reservation',
      'restock-notice',
    ])

    // why: a shop whose older deploys kept a listing cache still has its snapshots (whole records)
    const records = openStore(RECORDS_STORE, fakeContext())
    await records.setJSON('snapshots/reservations', { records: [{ email: ERASED }] })
    await records.set('journal/reservations/2026-01-01T00/1-a~cmVzZXJ2YXRpb25z', '')

    const erased = await post(
      eraseModule,
      '/api/admin/people/erase',
      { email: ERASED },
      { token: ADMIN_TOKEN },
    )
    expect(erased.status).toBe(200)
    expect(erased.body).toMatchObject({
      success: true,
      erased: {
        reservations: 1,
        subscriptions: 1,
        consents: 2,
        notices: 1,
        deliveries: 1,
        suppressionKept: true,
      },
    })
    expect(await filesHolding(blobs.directory, ERASED)).toEqual([])
    expect(await filesHolding(blobs.directory, KEPT)).not.toEqual([])

    const after = await post(
      exportModule,
      '/api/admin/people/export',
      { email: ERASED },
      { token: ADMIN_TOKEN },
    )
    expect(after.body).toEqual({
      success: true,
      email: ERASED,
      reservations: [],
      subscriptions: [],
      consents: [],
      notices: [],
      orders: [],
      suppressed: true,
    })
    const kept = await post(
      exportModule,
      '/api/admin/people/export',
      { email: KEPT },
      { token: ADMIN_TOKEN },
    )
    expect(kept.body.subscriptions).toHaveLength(1)
    expect(kept.body.notices).toHaveLength(1)

    const actions = logs.filter((line) => String(line.event).startsWith('people.'))
    expect(actions.map((line) => line.event)).toEqual([
      'people.exported',
      'people.erased',
      'people.exported',
      'people.exported',
    ])
    expect(actions[1].requestId).toBe(erased.requestId)
    expect(logText(logs)).not.toContain(ERASED)
  })

  it('needs the admin token and a valid address', async () => {
    expect((await post(exportModule, '/api/admin/people/export', { email: ERASED })).status).toBe(
      401,
    )
    const missing = await post(eraseModule, '/api/admin/people/erase', {}, { token: ADMIN_TOKEN })
    expect(missing).toMatchObject({
      status: 400,
      body: { success: false, error: 'email is required' },
    })
    const invalid = await post(
      eraseModule,
      '/api/admin/people/erase',
      { email: 'nope' },
      { token: ADMIN_TOKEN },
    )
    expect(invalid.body.error).toBe('email must be a valid e-mail address')
  })
})
