import { expect, it } from 'vitest'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { openShopPage, shopPage, useShopSite } from './shopSite.js'

/**
 * The search widget: marked results as you type on a shop's own site, linking to its pages; a
 * query holding markup shown as text; completions in a combobox the keyboard can use.
 */

const shop = chromiumFixture('shop')

describeInChromium('the search widget', shop, () => {
  const site = useShopSite(() => ({
    '/': shopPage(shop.url, `<shop-search endpoint="${shop.url}/"></shop-search>`),
  }))

  /** The shop's page in a fresh browser context, once its search box is drawn. */
  async function openShop() {
    const opened = await openShopPage(shop.browser, `${site.url}/`)
    await opened.page.locator('shop-search input').waitFor()
    return opened
  }

  it('search shows marked results as you type, linking to the pages', async () => {
    const { page, errors } = await openShop()
    const search = page.locator('shop-search')
    await search.getByRole('combobox', { name: 'サイト内検索' }).pressSequentially('入荷')
    await search.locator('[part=result]').first().waitFor()
    const marks = await search.locator('mark').allTextContents()
    expect(marks.length).toBeGreaterThan(0)
    expect(marks.every((text) => text === '入荷')).toBe(true)
    const hrefs = await search
      .locator('[part=result-link]')
      .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href))
    expect(hrefs).toContain(`${site.url}/news/yoyaku-shohin-nyuka`)
    await expect(search.getByRole('status').textContent()).resolves.toMatch(
      /^「入荷」の検索結果: \d+件$/,
    )
    expect(errors).toEqual([])
  })

  it('finds a kanji product typed by its reading, in kana or romaji, marking the kanji', async () => {
    const { page, errors } = await openShop()
    const search = page.locator('shop-search')
    const box = search.getByRole('combobox', { name: 'サイト内検索' })
    for (const [query, path, word] of [
      ['きゅうす', '/products/kyusu-tokoname', '急須'],
      ['tetsubin', '/products/nambu-tekki-kettle', '鉄瓶'],
    ] as const) {
      await box.fill(query)
      await box.press('Enter')
      await expect
        .poll(() => search.getByRole('status').textContent())
        .toMatch(new RegExp(`^「${query}」の検索結果: \\d+件$`))
      const first = search.locator('[part=result]').first()
      await expect(
        first.locator('[part=result-link]').evaluate((link) => (link as HTMLAnchorElement).href),
      ).resolves.toBe(`${site.url}${path}`)
      await expect(first.locator('mark').first().textContent()).resolves.toBe(word)
    }
    expect(errors).toEqual([])
  })

  it('a query holding markup runs no script and shows as text', async () => {
    const { page, errors } = await openShop()
    const search = page.locator('shop-search')
    const query =
      '<img src=x onerror="window.__widgetXss=1"><script>window.__widgetXss=2</script>入荷'
    await search.getByRole('combobox', { name: 'サイト内検索' }).fill(query)
    await search.getByRole('combobox', { name: 'サイト内検索' }).press('Enter')
    await search.locator('[part=status]:not(:empty)').waitFor()
    await expect(page.evaluate(() => (window as any).__widgetXss)).resolves.toBeUndefined()
    await expect(search.locator('img, script').count()).resolves.toBe(0)
    await expect(search.getByRole('status').textContent()).resolves.toContain('<img src=x')
    expect(errors).toEqual([])
  })

  it('offers completions as a combobox the keyboard can use', async () => {
    const { page, problems } = await openPage(shop.browser)
    await page.goto(`${shop.url}/demo/`)
    const search = page.locator('shop-search')
    const box = search.getByRole('combobox', { name: 'サイト内検索' })
    await box.pressSequentially('抹')
    const listbox = search.getByRole('listbox', { name: '検索候補' })
    await listbox.waitFor()
    await expect(box.getAttribute('aria-expanded')).resolves.toBe('true')
    const options = listbox.getByRole('option')
    expect(await options.count()).toBeGreaterThan(1)
    expect(await options.count()).toBeLessThanOrEqual(8)
    expect(await axeViolations(page, 'shop-search')).toEqual([])

    await page.keyboard.press('ArrowDown')
    const first = options.first()
    await expect(first.getAttribute('aria-selected')).resolves.toBe('true')
    await expect(box.getAttribute('aria-activedescendant')).resolves.toBe(
      await first.getAttribute('id'),
    )
    const chosen = (await first.textContent())!.replace(/ タグ$/, '')
    await page.keyboard.press('Enter')
    await expect(box.inputValue()).resolves.toBe(chosen)
    await expect(box.getAttribute('aria-expanded')).resolves.toBe('false')
    await search
      .getByRole('status')
      .filter({ hasText: `「${chosen}」の検索結果` })
      .waitFor()

    await box.fill('')
    await box.pressSequentially('こー')
    await listbox.waitFor()
    await page.keyboard.press('Escape')
    await expect(listbox.isHidden()).resolves.toBe(true)
    expect(problems.pageErrors).toEqual([])
    expect(problems.consoleErrors).toEqual([])
  })
})
