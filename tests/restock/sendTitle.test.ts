import { describe, expect, it } from 'vitest'
import {
  callSendEndpoint,
  freshProduct,
  seedSubscription,
  useSendSettings,
  VALID_SEND,
} from './restockTestKit.js'

const restock = useSendSettings()

const NOT_ONE_LINE = 'emailTitle must be a single line (no line breaks or control characters)'

describe('POST /api/admin/notify/send: emailTitle is one line (the e-mail subject)', () => {
  it.each([
    ['CR LF', '再入荷\r\nBcc: victim@example.com'],
    ['LF', '再入荷\nのお知らせ'],
    ['CR', '再入荷\rのお知らせ'],
    ['U+2028', '再入荷\u2028のお知らせ'],
    ['U+2029', '再入荷\u2029のお知らせ'],
    ['a tab', '再入荷\tのお知らせ'],
    ['NUL', '再入荷\u0000'],
  ])('%s inside the title → 400, nobody is notified', async (_, emailTitle) => {
    const productSlug = freshProduct()
    const subscriber = await seedSubscription(restock.repositories, { productSlug })
    const { status, body } = await callSendEndpoint({ ...VALID_SEND, productSlug, emailTitle })
    expect(status).toBe(400)
    expect(body).toEqual({ success: false, error: NOT_ONE_LINE })
    expect(await restock.repositories.subscriptions.get(subscriber)).toEqual(subscriber)
  })

  it('a line break around the title is trimmed away, not refused', async () => {
    const productSlug = freshProduct()
    await seedSubscription(restock.repositories, { productSlug })
    const { status } = await callSendEndpoint({
      ...VALID_SEND,
      productSlug,
      emailTitle: '\r\n再入荷のお知らせ\n',
    })
    expect(status).toBe(200)
  })
})
