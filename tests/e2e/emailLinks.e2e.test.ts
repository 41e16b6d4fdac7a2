import { describe, expect, it } from 'vitest'
import { useRestockDevServer } from '../helpers/restockDevServer.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

/**
 * Every link of every e-mail a shopper gets lands, over `npm start` (its own defaults: the demo
 * storefront as STOREFRONT_URL, the local shop name and contact), with e-mail going to a Resend
 * stand-in: the reservation receipt, the status e-mail, the double opt-in confirmation (and the
 * queue's status page its confirmed page links), the restock notice (click redirect, unsubscribe)
 * and the receipt of a cancel on the manage page.
 */

const dev = useRestockDevServer({ NOTIFY_DOUBLE_OPT_IN: 'true' })
const EMAIL = 'links-e2e@example.test'

/** Every e-mail the stand-in received, to EMAIL, as text. */
function mailTexts(): string[] {
  return dev.resend.requests
    .filter((request) => request.path.startsWith('/emails'))
    .flatMap((request) => (Array.isArray(request.json) ? request.json : [request.json]))
    .filter((mail: { to: string }) => mail.to === EMAIL)
    .map((mail: { text: string }) => mail.text)
}

const linksOf = (texts: string[]) => [
  ...new Set(texts.flatMap((text) => text.match(/https?:\/\/[^\s「」（）]+/g) ?? [])),
]

/** Waits until `ready` holds (the e-mails go after the answers). */
async function until(ready: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 100 && !ready(); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  expect(ready(), what).toBe(true)
}

async function post(path: string, body: unknown, token?: string) {
  return dev.server.postJson(path, body, token)
}

describe('the links of every e-mail a shopper gets, over npm start', () => {
  it('land: no product, page or redirect link answers 404', async () => {
    const reserved = await post('/api/reservation', {
      name: '山田 花子',
      email: EMAIL,
      productSlug: 'chasen-takayama',
    })
    expect(reserved.status).toBe(200)
    const id = reserved.body.reservationId as string
    const confirmed = await post(
      '/api/admin-reservations-status',
      { id, productSlug: 'chasen-takayama', status: 'confirmed' },
      ADMIN_TOKEN,
    )
    expect(confirmed.status).toBe(200)
    const signedUp = await post('/api/notify-signup', {
      email: EMAIL,
      productSlug: 'porlex-hand-grinder',
    })
    expect(signedUp.body).toMatchObject({ confirmationRequired: true })
    await until(
      () => mailTexts().length >= 3,
      'receipt, 「ご予約確定」 and the confirmation e-mail',
    )

    const confirmLink = linksOf(mailTexts()).find((link) => link.includes('/api/notify-confirm'))!
    const confirmedSignup = await fetch(confirmLink, { method: 'POST' })
    expect(confirmedSignup.status).toBe(200)
    // why: with double opt-in the page after confirming is what links the queue's status page
    const statusLink = /href="([^"]+\/notify\/status\?token=[^"]+)"/.exec(
      await confirmedSignup.text(),
    )?.[1]
    expect(statusLink).toBeDefined()
    const status = await fetch(statusLink!.replaceAll('&amp;', '&'))
    expect(status.status).toBe(200)
    const statusPage = await status.text()
    expect(statusPage).toContain('1 番目（入荷待ち 1 人）')
    expect(statusPage).toContain('茶と珈琲の道具店（デモ）')
    const sent = await post(
      '/api/admin/notify/send',
      {
        productSlug: 'porlex-hand-grinder',
        emailTitle: '再入荷のお知らせ',
        emailBody: '入荷しました。',
      },
      ADMIN_TOKEN,
    )
    expect(sent.status).toBe(200)
    await until(() => mailTexts().length >= 4, 'the restock notice')

    const manageLink = linksOf(mailTexts()).find((link) => link.includes('/reservation/manage'))!
    const cancelled = await fetch(manageLink, { method: 'POST' })
    expect(cancelled.status).toBe(200)
    await until(() => mailTexts().length >= 5, 'the receipt of the cancel')

    const links = linksOf(mailTexts())
    for (const part of [
      '/demo/products/chasen-takayama',
      '/demo/collections/mills/porlex-mini-2',
      '/api/r?',
      '/api/notify-unsubscribe?token=',
    ]) {
      expect(
        links.some((link) => link.includes(part)),
        part,
      ).toBe(true)
    }
    const answers: string[] = []
    for (const link of links) {
      const response = await fetch(link, { redirect: 'follow' })
      answers.push(`${response.status} ${link.replace(/token=[^&]+/, 'token=…')}`)
      const html = await response.text()
      if (link.includes('/api/notify-unsubscribe') || link.includes('/reservation/manage')) {
        expect(html).toContain('茶と珈琲の道具店（デモ）')
        expect(html).toContain('shop@example.test')
      }
    }
    expect(answers.filter((answer) => !answer.startsWith('200 '))).toEqual([])
  }, 120_000)
})
