import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import reservationHandler from '../../netlify/functions/reservation.js'
import statusHandler from '../../netlify/functions/admin-reservations-status.js'
import deleteHandler from '../../netlify/functions/admin-reservations-delete.js'
import { fakeContext } from '../helpers/context.js'
import {
  defaultReply,
  startRecordingServer,
  type RecordedRequest,
  type RecordingServer,
} from '../../platform/recordingServer.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { clearOutbound, FROM_EMAIL, pointOutboundAt } from '../forms/formTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { ADMIN_TOKEN, PREORDER_TOKEN, useApiTokens } from '../helpers/tokens.js'

/**
 * Status e-mails against a local Resend stand-in: one e-mail per applied transition
 * into confirmed, fulfilled or cancelled; none for a refused (409) or repeated change; notes only
 * when staff tick "share note"; none at all with RESERVATION_STATUS_EMAILS=off.
 */

const ADMIN = ADMIN_TOKEN
const PRODUCT = 'kiyomizu-matcha-chawan'
let server: RecordingServer
useBlobsServer()
beforeAll(clearOutbound)
useLogCapture()
useApiTokens()

beforeAll(async () => {
  server = await startRecordingServer()
})
afterAll(async () => {
  delete process.env.RESERVATION_LINK_SECRET
  delete process.env.RESERVATION_STATUS_EMAILS
  await server.close()
})
beforeEach(() => {
  pointOutboundAt(server, 1000)
  process.env.RESERVATION_LINK_SECRET = 'manage-link-secret-for-tests'
  delete process.env.RESERVATION_STATUS_EMAILS
  process.env.RESERVATION_STATUS_EMAIL_DELAY_MS = '0'
  server.requests.length = 0
  server.reply = defaultReply
})

let worlds = 0
let buyers = 0
function world() {
  const deployContext = `status-mail-${process.pid}-${++worlds}`
  async function call(handler: typeof statusHandler, path: string, body: unknown, token?: string) {
    const context = fakeContext({ deployContext })
    const answer = await readJson(await handler(jsonRequest(path, body, { token }), context))
    await context.settled()
    return answer
  }
  return {
    reserve: async (quantity = 1) => {
      const answer = await call(reservationHandler, '/api/reservation', {
        name: '鈴木 花子',
        // why: an address of its own each, so the hourly cap on confirmations never interferes
        email: `hanako.status+${++buyers}@example.com`,
        productSlug: PRODUCT,
        quantity,
      })
      expect(answer.status).toBe(200)
      return answer.body.reservationId as string
    },
    setStatus: (id: string, status: string, extra: Record<string, unknown> = {}) =>
      call(
        statusHandler,
        '/api/admin-reservations-status',
        { id, productSlug: PRODUCT, status, ...extra },
        ADMIN,
      ),
    /** The status change answered, its e-mail still to come: settle it with `context.settled()`. */
    async setStatusAnswered(id: string, status: string) {
      const context = fakeContext({ deployContext })
      const body = { id, productSlug: PRODUCT, status }
      const request = jsonRequest('/api/admin-reservations-status', body, { token: ADMIN })
      const answer = await readJson(await statusHandler(request, context))
      return { answer, context }
    },
    remove: (id: string) =>
      call(
        deleteHandler,
        '/api/admin/reservations/delete',
        { ids: [{ id, productSlug: PRODUCT }] },
        PREORDER_TOKEN,
      ),
  }
}

const emails = (): RecordedRequest[] =>
  server.requests.filter((request) => request.path.startsWith('/emails'))
const subjects = () => emails().map((request) => request.json.subject as string)

describe('status e-mails', () => {
  it('one e-mail per applied transition, none on a repeat or a 409; keys name the record and the transition', async () => {
    const w = world()
    const id = await w.reserve(2)
    expect(subjects()).toEqual(['【ご予約受付】京焼 Kiyomizu 抹茶碗 若草'])
    const receipt = emails()[0].json.text as string
    expect(receipt).toContain(`予約番号: ${id}`)
    expect(receipt).toContain('数量: 2')
    expect(receipt).toContain('発売予定日: 2027年1月20日')
    // why: a deploy context other than production and dev links to the request's own origin
    expect(receipt).toMatch(/\nhttp:\/\/localhost:8888\/reservation\/manage\?token=[\w.%-]+\n/)

    expect((await w.setStatus(id, 'confirmed')).status).toBe(200)
    expect((await w.setStatus(id, 'confirmed')).status).toBe(200) // the same request again
    expect((await w.setStatus(id, 'fulfilled')).status).toBe(200)
    expect((await w.setStatus(id, 'cancelled')).status).toBe(409) // fulfilled -> cancelled
    expect((await w.setStatus(id, 'fulfilled')).status).toBe(200) // again: nothing applied

    expect(subjects()).toEqual([
      '【ご予約受付】京焼 Kiyomizu 抹茶碗 若草',
      '【ご予約確定】京焼 Kiyomizu 抹茶碗 若草',
      '【商品のご用意ができました】京焼 Kiyomizu 抹茶碗 若草',
    ])
    const [, confirmed, fulfilled] = emails()
    expect(confirmed.json).toMatchObject({
      from: FROM_EMAIL,
      to: expect.stringMatching(/^hanako\.status\+\d+@example\.com$/),
    })
    expect(confirmed.json.text).toContain(`予約番号: ${id}`)
    expect(confirmed.json.text).toContain('数量: 2')
    expect(confirmed.json.text).toContain('発売予定日: 2027年1月20日')
    expect(confirmed.json.text).toContain('/reservation/manage?token=')
    expect(fulfilled.json.text).not.toContain('/reservation/manage?token=')
    const keys = [confirmed, fulfilled].map((request) => request.headers['idempotency-key'])
    expect(keys[0]).toMatch(new RegExp(`^reservation-status/${id}/confirmed/\\d{4}-`))
    expect(keys[1]).toMatch(new RegExp(`^reservation-status/${id}/fulfilled/\\d{4}-`))
  })

  it('a cancel is mailed; an un-cancel refused for want of units mails nothing', async () => {
    const w = world()
    const first = await w.reserve(2)
    await w.reserve(2)
    server.requests.length = 0
    expect((await w.setStatus(first, 'cancelled')).status).toBe(200)
    expect(subjects()).toEqual(['【ご予約キャンセル】京焼 Kiyomizu 抹茶碗 若草'])
    expect(emails()[0].headers['idempotency-key']).toMatch(
      new RegExp(`^reservation-status/${first}/cancelled/`),
    )
    await w.reserve(2)
    server.requests.length = 0
    const refused = await w.setStatus(first, 'pending')
    expect(refused.status).toBe(409)
    expect(refused.body.remaining).toBe(1)
    expect(emails()).toEqual([])
    expect((await w.setStatus(first, 'cancelled')).status).toBe(200) // already cancelled
    expect(emails()).toEqual([])
  })

  it('shows the notes only when staff tick "share note"', async () => {
    const w = world()
    const shared = await w.reserve()
    const kept = await w.reserve()
    server.requests.length = 0
    await w.setStatus(shared, 'confirmed', { notes: '1月下旬の発送予定です。', shareNote: true })
    await w.setStatus(kept, 'confirmed', { notes: '社内メモ: 常連様', shareNote: false })
    const [withNote, withoutNote] = emails()
    expect(withNote.json.text).toContain('ショップからのお知らせ:\n1月下旬の発送予定です。')
    expect(withoutNote.json.text).not.toContain('社内メモ')
    expect(withoutNote.json.text).not.toContain('ショップからのお知らせ')
    const invalid = await w.setStatus(kept, 'confirmed', { shareNote: 'yes' })
    expect(invalid.status).toBe(400)
    expect(invalid.body.error).toBe('shareNote must be true or false')
  })

  it('keeps the choice to share with the notes: saved first, the next 確定 e-mail carries them', async () => {
    const w = world()
    const id = await w.reserve()
    server.requests.length = 0
    // the note saved alone (保存), the status changed later without saying shareNote again
    const saved = await w.setStatus(id, 'pending', {
      notes: '店頭で 1 月 25 日からお渡しします。',
      shareNote: true,
    })
    expect(saved.body.reservation).toMatchObject({ status: 'pending', shareNote: true })
    expect(emails()).toEqual([])
    const confirmed = await w.setStatus(id, 'confirmed')
    expect(confirmed.body.reservation.shareNote).toBe(true)
    expect(emails()[0].json.text).toContain(
      'ショップからのお知らせ:\n店頭で 1 月 25 日からお渡しします。',
    )
    // unticked and saved: the next e-mail keeps the note inside the shop
    await w.setStatus(id, 'confirmed', { shareNote: false })
    server.requests.length = 0
    await w.setStatus(id, 'fulfilled')
    expect(emails()[0].json.text).not.toContain('店頭で 1 月 25 日')
  })

  it('RESERVATION_STATUS_EMAILS=off sends none', async () => {
    process.env.RESERVATION_STATUS_EMAILS = 'off'
    const w = world()
    const id = await w.reserve()
    server.requests.length = 0
    expect((await w.setStatus(id, 'confirmed')).status).toBe(200)
    expect((await w.setStatus(id, 'cancelled')).status).toBe(200)
    expect(emails()).toEqual([])
  })
})

describe('status e-mails tell the state the reservation still has when they go', () => {
  beforeEach(() => {
    // why: long enough for the racing request to land first on a loaded machine
    process.env.RESERVATION_STATUS_EMAIL_DELAY_MS = '1500'
  })

  it('a delete racing a confirmation: no 「ご予約確定」 for a reservation that is gone', async () => {
    const w = world()
    const id = await w.reserve()
    server.requests.length = 0
    const { answer, context } = await w.setStatusAnswered(id, 'confirmed')
    expect(answer.status).toBe(200)
    expect((await w.remove(id)).body).toMatchObject({ deletedIds: [id] })
    await context.settled()
    expect(subjects()).toEqual([])
  })

  it('a change undone within the delay e-mails only what stays', async () => {
    const w = world()
    const id = await w.reserve()
    server.requests.length = 0
    const confirmed = await w.setStatusAnswered(id, 'confirmed')
    const cancelled = await w.setStatusAnswered(id, 'cancelled')
    await Promise.all([confirmed.context.settled(), cancelled.context.settled()])
    expect(subjects()).toEqual(['【ご予約キャンセル】京焼 Kiyomizu 抹茶碗 若草'])
  })

  it('a change that stays is e-mailed after the delay', async () => {
    const w = world()
    const id = await w.reserve()
    server.requests.length = 0
    const { context } = await w.setStatusAnswered(id, 'confirmed')
    expect(subjects()).toEqual([])
    await context.settled()
    expect(subjects()).toEqual(['【ご予約確定】京焼 Kiyomizu 抹茶碗 若草'])
  })
})
