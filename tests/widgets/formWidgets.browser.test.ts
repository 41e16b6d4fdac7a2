import { expect, it } from 'vitest'
import { chromiumFixture, describeInChromium } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { openShopPage, shopPage, useShopSite } from './shopSite.js'

/**
 * The reservation and restock sign-up widgets on a shop's own site (another origin): what they
 * send reaches the admin lists, field errors, one reservation per submit, the already-signed-up
 * message, the honeypot; and the demo storefront.
 */

const shop = chromiumFixture('shop')

describeInChromium('the form widgets on a shop’s own site', shop, () => {
  const site = useShopSite(() => ({
    '/': shopPage(
      shop.url,
      `<shop-search endpoint="${shop.url}/"></shop-search>
<shop-reserve product="chasen-takayama"></shop-reserve>
<shop-notify product="hario-v60-dripper"></shop-notify>`,
    ),
  }))

  /** The shop's page in a fresh browser context, once its forms are drawn. */
  async function openShop() {
    const opened = await openShopPage(shop.browser, `${site.url}/`)
    await opened.page.locator('shop-reserve form').waitFor()
    return opened
  }

  it('a reservation made there reaches the admin list; fields are labelled, the honeypot hidden', async () => {
    const { page, errors } = await openShop()
    const form = page.locator('shop-reserve')
    // why: role queries skip aria-hidden, so the honeypot is not among the textboxes people reach
    await expect(form.getByRole('textbox').count()).resolves.toBe(2)
    await form.getByLabel('お名前').fill('山田 花子')
    await form.getByLabel('メールアドレス').fill('Widget.Reserve@Example.com')
    await form.getByRole('button', { name: '予約する' }).click()
    const reference = form.locator('[part=reference]')
    await reference.waitFor()
    const id = await reference.textContent()
    expect(id).toMatch(/^res_/)
    await expect(form.getByRole('status').textContent()).resolves.toContain(
      'ご予約を受け付けました',
    )

    const list = await shop.postJson(
      '/api/admin-reservations-list',
      { productSlug: 'chasen-takayama' },
      ADMIN_TOKEN,
    )
    expect(list.body.reservations).toEqual([
      expect.objectContaining({ id, name: '山田 花子', email: 'widget.reserve@example.com' }),
    ])
    expect(errors).toEqual([])
  })

  it('shows the server field errors under each field, and sends one reservation per submit', async () => {
    const { page, errors } = await openShop()
    const form = page.locator('shop-reserve')
    await form.getByLabel('メールアドレス').fill('not-an-email')
    await form.getByRole('button', { name: '予約する' }).click()
    await form.locator('#form-error:not(:empty)').waitFor()
    await expect(form.locator('#form-error').textContent()).resolves.toBe(
      '入力内容に誤りがあります。',
    )
    await expect(form.locator('#field-name-error').textContent()).resolves.toBe(
      'お名前を入力してください。',
    )
    await expect(form.locator('#field-email-error').textContent()).resolves.toBe(
      'メールアドレスの形式が正しくありません。',
    )
    await expect(form.getByLabel('メールアドレス').getAttribute('aria-invalid')).resolves.toBe(
      'true',
    )
    // why: the browser reports the documented 400 itself; nothing else may be logged
    expect(errors.every((text) => text.includes('status of 400'))).toBe(true)
    errors.length = 0

    await form.getByLabel('お名前').fill('二重 送信')
    await form.getByLabel('メールアドレス').fill('double-submit@example.com')
    await form.locator('form').evaluate((element: HTMLFormElement) => {
      element.requestSubmit()
      element.requestSubmit()
      element.requestSubmit()
    })
    await form.locator('[part=reference]').waitFor()
    const list = await shop.postJson('/api/admin-reservations-list', {}, ADMIN_TOKEN)
    const mine = list.body.reservations.filter(
      (reservation: { email: string }) => reservation.email === 'double-submit@example.com',
    )
    expect(mine).toHaveLength(1)
    expect(errors).toEqual([])
  })

  it('a sign-up made there reaches the admin list; a repeated one says it was already made', async () => {
    const { page, errors } = await openShop()
    const notify = page.locator('shop-notify')
    await notify.getByLabel('メールアドレス').fill('widget.notify@example.com')
    await notify.getByRole('button', { name: '入荷したら知らせる' }).click()
    await notify.locator('[part=reference]').waitFor()
    const id = await notify.locator('[part=reference]').textContent()
    await expect(notify.getByRole('status').textContent()).resolves.toContain('登録しました')
    const list = await shop.postJson(
      '/api/admin-notify-list',
      { productSlug: 'hario-v60-dripper' },
      ADMIN_TOKEN,
    )
    expect(list.body.subscriptions).toEqual([
      expect.objectContaining({ id, email: 'widget.notify@example.com', status: 'pending' }),
    ])

    await page.reload()
    await notify.getByLabel('メールアドレス').fill('widget.notify@example.com')
    await notify.getByRole('button', { name: '入荷したら知らせる' }).click()
    await notify.locator('[part=reference]').waitFor()
    await expect(notify.locator('[part=reference]').textContent()).resolves.toBe(id)
    await expect(notify.getByRole('status').textContent()).resolves.toContain('すでに登録済み')
    expect(errors).toEqual([])
  })

  it('recognises an earlier sign-up from another device by the age of its id', async () => {
    const earlier = await shop.postJson('/api/notify-signup', {
      email: 'other-device@example.com',
      productSlug: 'hario-v60-dripper',
    })
    const { page, errors } = await openShop()
    // why: the subscription must look older than the 2-minute margin without waiting for it
    await page.clock.setSystemTime(Date.now() + 10 * 60 * 1000)
    const notify = page.locator('shop-notify')
    await notify.getByLabel('メールアドレス').fill('other-device@example.com')
    await notify.getByRole('button', { name: '入荷したら知らせる' }).click()
    await notify.locator('[part=reference]').waitFor()
    await expect(notify.locator('[part=reference]').textContent()).resolves.toBe(
      earlier.body.subscriptionId,
    )
    await expect(notify.getByRole('status').textContent()).resolves.toContain('すでに登録済み')
    expect(errors).toEqual([])
  })

  it('a bot filling every field, the hidden one too, sees a success and nothing is stored', async () => {
    const { page, errors } = await openShop()
    const form = page.locator('shop-reserve')
    await form.getByLabel('お名前').fill('ボット')
    await form.getByLabel('メールアドレス').fill('bot@example.com')
    await form.locator('input[name=website]').evaluate((input: HTMLInputElement) => {
      input.value = 'https://spam.example'
    })
    await form.getByRole('button', { name: '予約する' }).click()
    await form.locator('[part=reference]').waitFor()
    await expect(form.locator('[part=reference]').textContent()).resolves.toMatch(/^res_/)
    const list = await shop.postJson('/api/admin-reservations-list', {}, ADMIN_TOKEN)
    const emails = list.body.reservations.map((reservation: { email: string }) => reservation.email)
    expect(emails).not.toContain('bot@example.com')
    expect(list.status).toBe(200)
    expect(errors).toEqual([])
  })

  it('the demo storefront (/demo/) renders every element without console errors', async () => {
    const page = await (await shop.browser.newContext()).newPage()
    const errors: string[] = []
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
    page.on('pageerror', (error) => errors.push(String(error)))
    await page.goto(`${shop.url}/demo/`)
    await page.locator('shop-notify').last().getByRole('button').waitFor()
    await expect(
      page.locator('shop-reserve').getByRole('button', { name: '予約する' }).count(),
    ).resolves.toBe(2)
    await expect(page.locator('shop-notify').getByLabel('メールアドレス').count()).resolves.toBe(2)
    await expect(
      page.locator('shop-search').getByRole('combobox', { name: 'サイト内検索' }).count(),
    ).resolves.toBe(1)
    expect(errors).toEqual([])
  })
})
