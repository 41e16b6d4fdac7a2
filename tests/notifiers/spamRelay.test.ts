import { describe, expect, it } from 'vitest'
import signupHandler from '../../netlify/functions/notify-signup.js'
import reservationHandler from '../../netlify/functions/reservation.js'
import { listProducts } from '../../src/lib/productCatalogue.js'
import { openStore, RECORDS_STORE } from '../../src/lib/storage/blobStore.js'
import { CONFIRMATIONS_PER_HOUR } from '../../src/lib/storage/confirmationLimits.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { fakeContext } from '../helpers/context.js'
import type { RecordedRequest } from '../../platform/recordingServer.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { catalogueProduct, useOutboundRecorder } from '../forms/formTestKit.js'
import { logText } from '../helpers/logs.js'

/**
 * The public forms are no spam relay: confirmation e-mails per address and hour are
 * capped (the records are still stored), and what a customer typed never becomes a link or
 * formatting in an e-mail or a chat message.
 */

const SITE = 'https://shop.example'
const PRODUCT = catalogueProduct('chasen-takayama')
const ATTACK_NAME =
  '至急ご確認ください http://phish.example/1 *重要* <https://evil.example|こちら> www.evil.example 様'
const recorder = useOutboundRecorder(SITE)
const { logs } = recorder

async function submit(handler: typeof reservationHandler, path: string, body: unknown) {
  const context = fakeContext()
  const answer = await readJson(await handler(jsonRequest(path, body), context))
  await context.settled()
  return answer
}

const emails = (): RecordedRequest[] => recorder.server.requests.filter((r) => r.path === '/emails')
const toAddress = (address: string) =>
  emails().filter((request) => request.json.to === address || request.json.to?.[0] === address)

describe('confirmation e-mails per address and hour', () => {
  it(`sends at most ${CONFIRMATIONS_PER_HOUR} an hour to one address across forms and spellings; every record is stored`, async () => {
    const address = `victim-${crypto.randomUUID().slice(0, 8)}@example.com`
    const spellings = [address, address.toUpperCase(), ` ${address}`, address.replace('@', '+x@')]
    const ids: string[] = []
    for (let index = 0; index < 8; index++) {
      const answer = await submit(reservationHandler, '/api/reservation', {
        name: `名前${index}`,
        email: spellings[index % spellings.length].trim(),
        productSlug: PRODUCT.slug,
      })
      expect(answer.status).toBe(200)
      ids.push(answer.body.reservationId)
    }
    for (const product of listProducts().slice(0, 4)) {
      const answer = await submit(signupHandler, '/api/notify-signup', {
        email: address,
        productSlug: product.slug,
      })
      expect(answer.status).toBe(200)
    }
    const sent = emails().filter((request) =>
      String(request.json.to).toLowerCase().replace('+x@', '@').includes(address),
    )
    expect(sent).toHaveLength(CONFIRMATIONS_PER_HOUR)
    expect(new Set(ids).size).toBe(8)
    const capped = logs.filter((line) => line.event === 'email.confirmation_capped')
    expect(capped).toHaveLength(12 - CONFIRMATIONS_PER_HOUR)
    // the counter is keyed by a hash: no address in any key or log line
    const { blobs } = await openStore(RECORDS_STORE, fakeContext()).list({
      prefix: 'confirmation-limits/',
    })
    expect(blobs.length).toBeGreaterThan(0)
    for (const { key } of blobs) expect(key).not.toMatch(/victim|@|example/)
    for (const line of capped) expect(JSON.stringify(line)).not.toContain('victim')
  })

  it('counts per clock hour: the next hour allows e-mails again (time is a parameter)', async () => {
    const limits = openRepositories(fakeContext()).confirmationLimits
    const address = `hourly-${crypto.randomUUID().slice(0, 8)}@example.com`
    const at = new Date('2026-11-23T10:59:00Z')
    const taken = []
    for (let index = 0; index < CONFIRMATIONS_PER_HOUR + 2; index++) {
      taken.push(await limits.take(address, at))
    }
    expect(taken.filter(Boolean)).toHaveLength(CONFIRMATIONS_PER_HOUR)
    expect(await limits.take(address, new Date('2026-11-23T11:00:00Z'))).toBe(true)
  })

  it('simultaneous requests never pass the cap (compare-and-swap)', async () => {
    const limits = openRepositories(fakeContext()).confirmationLimits
    const address = `race-${crypto.randomUUID().slice(0, 8)}@example.com`
    const at = new Date('2026-11-23T10:00:00Z')
    const taken = await Promise.all(Array.from({ length: 20 }, () => limits.take(address, at)))
    expect(taken.filter(Boolean)).toHaveLength(CONFIRMATIONS_PER_HOUR)
  })
})

describe('customer text is never a link or formatting', () => {
  it('Slack: no unfurling, the name is escaped and its URLs broken; the e-mail names them as plain text', async () => {
    const address = `name-${crypto.randomUUID().slice(0, 8)}@example.com`
    const answer = await submit(reservationHandler, '/api/reservation', {
      name: ATTACK_NAME,
      email: address,
      productSlug: PRODUCT.slug,
    })
    expect(answer.status).toBe(200)
    const [slack] = recorder.server.requests.filter((request) => request.path.startsWith('/slack/'))
    expect(slack.json.unfurl_links).toBe(false)
    expect(slack.json.unfurl_media).toBe(false)
    const text: string = slack.json.blocks[0].text.text
    const nameLine = text.split('\n').find((line) => line.startsWith('お名前'))!
    // the whole name is one inline code span: no bold, no link, no mention inside it
    expect(nameLine).toMatch(/^お名前: `[^`]+`$/)
    expect(nameLine).not.toMatch(/https?:\/\//)
    expect(nameLine).not.toContain('<https')
    expect(nameLine).not.toMatch(/www\.evil/)
    expect(text).toContain(`メール: \`${address}\``)
    expect(nameLine).toContain('http[:]//phish[.]example/1')
    // the product page stays a bare URL
    expect(text).toContain(`${SITE}/products/${PRODUCT.slug}`)

    const [email] = toAddress(address)
    const firstLine: string = email.json.text.split('\n')[0]
    expect(firstLine).not.toMatch(/https?:\/\/|www\.|phish\.example|evil\.example/)
    expect(firstLine).toContain('http[:]//phish[.]example/1')
    expect(email.json.html).toBeUndefined()
    expect(logText(logs)).not.toContain('http://phish.example')
  })

  it('Discord: embeds suppressed and markdown escaped', async () => {
    await submit(signupHandler, '/api/notify-signup', {
      email: `discord-${crypto.randomUUID().slice(0, 8)}@example.com`,
      productSlug: PRODUCT.slug,
    })
    const [discord] = recorder.server.requests.filter((request) =>
      request.path.startsWith('/discord/'),
    )
    expect(discord.json.flags & 4).toBe(4) // SUPPRESS_EMBEDS
    expect(discord.json.allowed_mentions).toEqual({ parse: [] })
  })
})
