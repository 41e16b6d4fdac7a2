import { describe, expect, it } from 'vitest'
import {
  reservationConfirmationEmail,
  reservationTeamChatMessage,
} from '../../src/lib/messages/reservationMessages.js'
import {
  signupCommunityChatMessage,
  signupConfirmationEmail,
  signupTeamChatMessage,
} from '../../src/lib/messages/signupMessages.js'
import { discordPayload } from '../../src/lib/notifiers/discordNotifier.js'
import { formatJst } from '../../src/lib/notifiers/jstTime.js'
import { slackPayload } from '../../src/lib/notifiers/slackNotifier.js'
import { escapeSlackText, joinMrkdwn, mrkdwn } from '../../src/lib/notifiers/slackText.js'
import { truncateText } from '../../src/lib/notifiers/textLimits.js'

describe('Slack text escaping (D10)', () => {
  it('escapes &, < and > so that mentions and links stay text', () => {
    expect(escapeSlackText('<!channel> <https://x|y> & <@U1>')).toBe(
      '&lt;!channel&gt; &lt;https://x|y&gt; &amp; &lt;@U1&gt;',
    )
  })

  it('escapes an already escaped entity again (the customer typed it)', () => {
    expect(escapeSlackText('&lt;!here&gt;')).toBe('&amp;lt;!here&amp;gt;')
  })

  it('mrkdwn keeps the template markup and escapes every value', () => {
    const text = mrkdwn`*予約* ${'<!channel>'} / ${42}`
    expect(text).toBe('*予約* &lt;!channel&gt; / 42')
    expect(joinMrkdwn([text, mrkdwn`${'a&b'}`])).toBe('*予約* &lt;!channel&gt; / 42\na&amp;b')
  })
})

describe('size limits (D10)', () => {
  it('leaves text within the limit unchanged', () => {
    expect(truncateText('あ'.repeat(3000), 3000)).toBe('あ'.repeat(3000))
  })

  it('cuts longer text to the limit, ending with an ellipsis', () => {
    const cut = truncateText('a'.repeat(5000), 3000)
    expect(cut).toHaveLength(3000)
    expect(cut.endsWith('a…')).toBe(true)
  })

  it.each([0, 1, 2, 3, 4])('never splits an entity (cut %i characters into it)', (offset) => {
    // the entity starts so that the limit falls `offset` characters into `&amp;`
    const text = 'a'.repeat(2999 - offset) + '&amp;' + 'b'.repeat(100)
    const cut = truncateText(text, 3000)
    expect(cut.length).toBeLessThanOrEqual(3000)
    expect(cut.endsWith('…')).toBe(true)
    expect(cut).toMatch(/^a+(&amp;)?…$/)
  })

  it('keeps a complete entity that ends exactly before the ellipsis', () => {
    const text = 'a'.repeat(2994) + '&amp;' + 'b'.repeat(10)
    expect(truncateText(text, 3000)).toBe('a'.repeat(2994) + '&amp;…')
  })

  it('never splits a surrogate pair', () => {
    const cut = truncateText('a' + '😀'.repeat(2000), 2000)
    expect(cut.length).toBeLessThanOrEqual(2000)
    expect(cut).toBe('a' + '😀'.repeat(999) + '…')
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
  })

  it('limits the Slack section text to 3000 and sends the same text as fallback', () => {
    const payload = slackPayload(mrkdwn`${'<'.repeat(2000)}`)
    const section = payload.blocks[0].text.text
    expect(section.length).toBeLessThanOrEqual(3000)
    expect(section).toMatch(/^(&lt;)+…$/)
    expect(payload.text).toBe(section)
    expect(payload.blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } })
  })

  it('limits Discord content to 2000 and never allows mentions', () => {
    const payload = discordPayload('@everyone ' + 'x'.repeat(3000))
    expect(payload.content).toHaveLength(2000)
    expect(payload.content.endsWith('…')).toBe(true)
    expect(payload.allowed_mentions).toEqual({ parse: [] })
  })
})

describe('message texts', () => {
  const product = { slug: 'tea-and-cup', title: 'Tea & <Cup>', path: '/products/tea-and-cup' }
  const productUrl = 'https://shop.example/products/tea-and-cup'
  const reservation = {
    id: 'res_1',
    name: '<!channel> 山田',
    email: 'yamada@example.com',
    productSlug: 'tea-and-cup',
    status: 'pending',
    notes: '',
    createdAt: '2026-11-21T15:05:00.000Z',
    respondedAt: null,
  }
  const subscription = {
    id: 'ntf_1-a',
    email: 'sub@example.com',
    productSlug: 'tea-and-cup',
    status: 'pending' as const,
    createdAt: '2026-11-21T15:05:00.000Z',
    notifiedAt: null,
  }

  it('formats times in Japan time', () => {
    expect(formatJst('2026-11-21T15:05:00.000Z')).toBe('2026年11月22日 00:05（日本時間）')
    expect(formatJst('not a date')).toBe('not a date')
  })

  it('reservation team-chat message: product, name, e-mail, id, time, bare URL, all escaped', () => {
    const { slackText } = reservationTeamChatMessage({ reservation, product, productUrl })
    expect(slackText).toContain('Tea &amp; &lt;Cup&gt;（tea-and-cup）')
    expect(slackText).toContain('&lt;!channel&gt; 山田')
    expect(slackText).toContain('yamada@example.com')
    expect(slackText).toContain('res_1')
    expect(slackText).toContain('2026年11月22日 00:05')
    expect(slackText).toContain(productUrl)
    expect(slackText).not.toContain('<')
  })

  it('reservation e-mail: plain text with the name, id and product page', () => {
    const email = reservationConfirmationEmail({ reservation, product, productUrl })
    expect(email.subject).toBe('【ご予約受付】Tea & <Cup>')
    expect(email.text).toContain('<!channel> 山田 様')
    expect(email.text).toContain('予約番号: res_1')
    expect(email.text).toContain(`商品ページ: ${productUrl}`)
    expect(email.html).toBeUndefined()
  })

  it('signup messages: team chat has the e-mail; community chat only product and URL', () => {
    const input = { subscription, product, productUrl }
    const { slackText } = signupTeamChatMessage(input)
    expect(slackText).toContain('sub@example.com')
    expect(slackText).toContain('2026年11月22日 00:05')
    expect(slackText.split('\n')).toContain(productUrl)
    const { discordContent } = signupCommunityChatMessage({ product, productUrl })
    expect(discordContent).toBe(`「Tea & <Cup\\>」に再入荷通知の登録がありました。\n${productUrl}`)
    const statusUrl = 'https://shop.example.com/notify/status?token=abc'
    const email = signupConfirmationEmail({
      ...input,
      queue: { place: 12, waiting: 40 },
      statusUrl,
    })
    expect(email.subject).toContain('Tea & <Cup>')
    expect(email.text).toContain(productUrl)
    expect(email.text).toContain('入荷待ちの順番: 12 番目（入荷待ち 40 人）')
    expect(email.text).toContain(`入荷待ちの状況: ${statusUrl}`)
    const bare = signupConfirmationEmail({ ...input, queue: null, statusUrl: null })
    expect(bare.text).not.toContain('入荷待ち')
  })
})

describe('product titles are escaped or neutralised like any other text (D10)', () => {
  // why: no real catalogue title holds markup, so the templates get crafted products directly
  const productUrl = 'https://shop.example/products/odd-title'
  const subscription = {
    id: 'ntf_2-b',
    email: 'fan.person@example.com',
    productSlug: 'odd-title',
    status: 'pending' as const,
    createdAt: '2026-11-21T15:05:00.000Z',
    notifiedAt: null,
  }
  const reservation = {
    id: 'res_2',
    name: '佐藤 一郎',
    email: 'ichiro@example.com',
    productSlug: 'odd-title',
    status: 'pending',
    notes: '',
    createdAt: '2026-11-21T15:05:00.000Z',
    respondedAt: null,
  }
  const markupTitle = { slug: 'odd-title', title: 'Tea & <Cup> 限定', path: '/products/odd-title' }
  const everyoneTitle = {
    slug: 'odd-title',
    title: '@everyone 向け特価品',
    path: '/products/odd-title',
  }

  it('reservation team chat: &, < and > of the title arrive as entities in the Slack payload', () => {
    const input = { reservation, product: markupTitle, productUrl }
    const payload = slackPayload(reservationTeamChatMessage(input).slackText)
    const text = payload.blocks[0].text.text
    expect(text).toContain('商品: Tea &amp; &lt;Cup&gt; 限定（odd-title）')
    expect(text).not.toMatch(/<[!@h#]/)
    expect(payload.text).toBe(text)
  })

  it('restock team chat: &, < and > of the title arrive as entities in the Slack payload', () => {
    const input = { subscription, product: markupTitle, productUrl }
    const payload = slackPayload(signupTeamChatMessage(input).slackText)
    const text = payload.blocks[0].text.text
    expect(text).toContain('商品: Tea &amp; &lt;Cup&gt; 限定（odd-title）')
    expect(text).toContain('fan.person@example.com')
    expect(text.split('\n')).toContain(productUrl)
    expect(text).not.toContain('<')
  })

  it('restock team chat: an @everyone title stays plain text (Slack pings only <!everyone>)', () => {
    const input = { subscription, product: everyoneTitle, productUrl }
    const text = slackPayload(signupTeamChatMessage(input).slackText).blocks[0].text.text
    expect(text).toContain('商品: @everyone 向け特価品（odd-title）')
    expect(text).not.toContain('<!')
  })

  it('community chat: an @everyone title is sent as text that can ping nobody', () => {
    const { discordContent } = signupCommunityChatMessage({ product: everyoneTitle, productUrl })
    expect(discordPayload(discordContent)).toEqual({
      content: `「@everyone 向け特価品」に再入荷通知の登録がありました。\n${productUrl}`,
      allowed_mentions: { parse: [] },
      flags: 4,
    })
  })

  it('community chat: a title with markup is sent with its markdown escaped, with product and URL only', () => {
    const { discordContent } = signupCommunityChatMessage({ product: markupTitle, productUrl })
    expect(discordPayload(discordContent)).toEqual({
      content: `「Tea & <Cup\\> 限定」に再入荷通知の登録がありました。\n${productUrl}`,
      allowed_mentions: { parse: [] },
      flags: 4,
    })
  })

  it('confirmation e-mails are plain text: the title is kept as typed', () => {
    const reservationMail = reservationConfirmationEmail({
      reservation,
      product: markupTitle,
      productUrl,
    })
    expect(reservationMail.subject).toBe('【ご予約受付】Tea & <Cup> 限定')
    expect(reservationMail.html).toBeUndefined()
    const signupMail = signupConfirmationEmail({
      subscription,
      product: everyoneTitle,
      productUrl,
      queue: null,
      statusUrl: null,
    })
    expect(signupMail.subject).toBe('【再入荷通知】@everyone 向け特価品 の通知登録を受け付けました')
    expect(signupMail.text).toContain('「@everyone 向け特価品」')
    expect(signupMail.html).toBeUndefined()
  })
})
