import { beforeAll, expect, it } from 'vitest'
import { axeViolations } from '../helpers/axe.js'
import { chromiumFixture, describeInChromium, openPage } from '../helpers/chromiumFixture.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { loaded, openRoute, signIn } from './dashboardPage.js'

// why: a word no page holds, so it lands in the zero-result list
const MISSING_WORD = `せんちゃぽっと${Date.now() % 1000}`

const shop = chromiumFixture('shop')

describeInChromium('the search synonyms screen in Chromium', shop, () => {
  beforeAll(async () => {
    const response = await fetch(`${shop.url}/api/search?q=${encodeURIComponent(MISSING_WORD)}`)
    expect((await response.json()).totalResults).toBe(0)
  })

  it('adds a synonym from the zero-result list and removes it, accessibly', async () => {
    const { page, problems } = await openPage(shop.browser)
    await signIn(page, shop.url, ADMIN_TOKEN)
    // why: the overview links to the same screen from its zero-result searches
    await page
      .getByRole('navigation', { name: 'メインメニュー' })
      .getByRole('link', { name: '検索の同義語' })
      .click()
    await openRoute(page, '#/search')
    // why: the keyword log is written after the search answered; the list is read again until it shows
    const zeroList = page.locator('.zero-results')
    for (
      let attempt = 0;
      attempt < 20 && !(await zeroList.textContent().catch(() => ''))?.includes(MISSING_WORD);
      attempt++
    ) {
      await page.waitForTimeout(250)
      await openRoute(page, '#/overview')
      await openRoute(page, '#/search')
    }
    await page.getByRole('button', { name: `「${MISSING_WORD}」の同義語を追加` }).click()
    const input = page.getByLabel('同じ意味の語（「=」で区切る）')
    await expect(input.inputValue()).resolves.toBe(`${MISSING_WORD} = `)
    await expect(page.evaluate(() => document.activeElement?.getAttribute('name'))).resolves.toBe(
      'words',
    )
    await input.pressSequentially('急須')
    await page.keyboard.press('Enter')
    await page.getByRole('status').filter({ hasText: 'を追加しました' }).waitFor()
    await loaded(page)
    const table = page.getByRole('table', { name: '追加した同義語' })
    await expect(
      table.getByRole('cell', { name: `${MISSING_WORD} = 急須`, exact: true }).count(),
    ).resolves.toBe(1)
    await expect(page.locator('.built-in').textContent()).resolves.toContain('抹茶 = matcha')
    expect(await axeViolations(page)).toEqual([])

    // the same word twice (katakana = hiragana) is refused in Japanese
    await input.fill('チャセン = ちゃせん')
    await page.getByRole('button', { name: '同義語を追加' }).first().click()
    await page.getByRole('alert').filter({ hasText: '同じ語が含まれています' }).waitFor()

    await table.getByRole('button', { name: `「${MISSING_WORD} = 急須」を削除` }).click()
    await page.getByRole('status').filter({ hasText: 'を削除しました' }).waitFor()
    await loaded(page)
    await expect(page.getByText('まだありません。').count()).resolves.toBeGreaterThan(0)
    expect(problems.pageErrors).toEqual([])
  })
})
