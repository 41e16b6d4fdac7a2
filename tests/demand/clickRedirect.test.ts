import { beforeEach, describe, expect, it } from 'vitest'
import { restockClick } from '../../netlify/functions/restock-click.js'
import { CLICK_LINK_TTL_MS, clickUrl } from '../../src/lib/demand/clickLink.js'
import { restockEmailFor } from '../../src/lib/restock/deliveryRun.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { fakeContext } from '../helpers/context.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { logText, useLogCapture } from '../helpers/logs.js'

/**
 * GET /api/r, the product link of restock e-mails, on a real local Blobs server: a genuine click
 * counts once per recipient and notice and redirects to the product page; a forged, expired,
 * replayed or foreign-target link still redirects to the shop (never an error page, never
 * elsewhere) and counts nothing.
 */

const SECRET = 'click-secret-for-tests'
const SITE = 'https://shop.example.jp'
const PRODUCT = 'mino-yaki-mug'
const SENT_AT = Date.parse('2026-11-23T01:00:00Z')

useBlobsServer()
const logs = useLogCapture()
beforeEach(() => {
  process.env.UNSUBSCRIBE_SECRET = SECRET
})

let worlds = 0
function world() {
  const deployContext = `clicks-${process.pid}-${++worlds}`
  const repositories = openRepositories(fakeContext({ deployContext }))
  async function follow(url: string, now = SENT_AT + 60_000) {
    const path = new URL(url)
    const req = new Request(`http://localhost:8888${path.pathname}${path.search}`)
    const response = await restockClick({ now: () => now })(req, fakeContext({ deployContext }))
    return { status: response.status, location: response.headers.get('location') ?? '' }
  }
  const clicks = (noticeId: string) => repositories.demand.countClicks(noticeId)
  return { follow, clicks }
}

const link = (
  overrides: Partial<{ noticeId: string; subscriptionId: string; productSlug: string }> = {},
) =>
  clickUrl(
    SITE,
    { noticeId: 'notif_1', subscriptionId: 'ntf_1-a', productSlug: PRODUCT, ...overrides },
    SECRET,
    SENT_AT,
  )

const productPath = `/products/${PRODUCT}`

describe('restock click redirect', () => {
  it('the restock e-mail links the product through the signed redirect on our own origin', () => {
    const email = restockEmailFor(
      {
        notificationId: 'notif_1',
        productSlug: PRODUCT,
        emailTitle: '再入荷',
        emailBody: '入荷しました。',
        recipients: [],
        createdAt: new Date(SENT_AT).toISOString(),
      },
      { subscriptionId: 'ntf_1-a', email: 'hanako@example.com' },
      SITE,
      SECRET,
      SENT_AT,
    )
    const url = link()
    expect(url.startsWith(`${SITE}/api/r?`)).toBe(true)
    expect(email.text).toContain(url)
    expect(email.html).toContain(url.replace(/&/g, '&amp;'))
    expect(url).not.toContain('hanako')
  })

  it('counts a genuine click once per recipient; a replay redirects without counting', async () => {
    const w = world()
    const first = await w.follow(link())
    expect(first.status).toBe(302)
    expect(new URL(first.location).pathname).toBe(productPath)
    expect(await w.clicks('notif_1')).toBe(1)
    const again = await w.follow(link())
    expect(again).toEqual(first)
    expect(await w.clicks('notif_1')).toBe(1)
    await w.follow(link({ subscriptionId: 'ntf_2-b' }))
    expect(await w.clicks('notif_1')).toBe(2)
    expect(logText(logs)).toContain('"outcome":"repeated"')
  })

  it('a forged signature redirects to the product page and counts nothing', async () => {
    const w = world()
    const url = new URL(link())
    const sig = url.searchParams.get('sig')!
    url.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1))
    const forged = await w.follow(url.toString())
    expect(forged.status).toBe(302)
    expect(new URL(forged.location).pathname).toBe(productPath)
    // another notice under the same signature
    const moved = new URL(link())
    moved.searchParams.set('n', 'notif_2')
    await w.follow(moved.toString())
    const signedElsewhere = clickUrl(
      SITE,
      { noticeId: 'notif_1', subscriptionId: 'ntf_1-a', productSlug: PRODUCT },
      'another-secret',
      SENT_AT,
    )
    await w.follow(signedElsewhere)
    expect(await w.clicks('notif_1')).toBe(0)
    expect(await w.clicks('notif_2')).toBe(0)
  })

  it('an expired link still leads to the product page but counts nothing', async () => {
    const w = world()
    const late = await w.follow(link(), SENT_AT + CLICK_LINK_TTL_MS)
    expect(late.status).toBe(302)
    expect(new URL(late.location).pathname).toBe(productPath)
    expect(await w.clicks('notif_1')).toBe(0)
    await w.follow(link(), SENT_AT + CLICK_LINK_TTL_MS - 1000)
    expect(await w.clicks('notif_1')).toBe(1)
  })

  it('never redirects elsewhere than the shop: foreign URL, unknown product, garbage', async () => {
    const w = world()
    const valid = await w.follow(link())
    const shop = new URL(valid.location).origin
    const foreign = new URL(link())
    foreign.searchParams.set('u', 'https://evil.example/phish')
    const unknown = link({ productSlug: 'no-such-product' })
    for (const url of [
      foreign.toString(),
      unknown,
      `${SITE}/api/r?u=//evil.example`,
      `${SITE}/api/r`,
      `${SITE}/api/r?n=%00&sig=${'x'.repeat(43)}`,
    ]) {
      const answer = await w.follow(url)
      expect(answer.status).toBe(302)
      expect(new URL(answer.location).origin).toBe(shop)
      expect(new URL(answer.location).pathname).toBe('/')
    }
    // only the genuine click counted (the signed unknown-product link is the same recipient's repeat)
    expect(await w.clicks('notif_1')).toBe(1)
  })

  it('lands on the storefront (STOREFRONT_URL), at the product page’s own address when it has one', async () => {
    const w = world()
    process.env.STOREFRONT_URL = 'https://store.example.jp/'
    try {
      const product = await w.follow(link())
      expect(product).toEqual({
        status: 302,
        location: `https://store.example.jp/products/${PRODUCT}`,
      })
      const own = await w.follow(link({ productSlug: 'porlex-hand-grinder' }))
      expect(own.location).toBe('https://store.example.jp/collections/mills/porlex-mini-2')
      const unknown = await w.follow(link({ productSlug: 'no-such-product' }))
      expect(unknown.location).toBe('https://store.example.jp/')
    } finally {
      delete process.env.STOREFRONT_URL
    }
  })
})
