import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium } from '../../platform/chromium.js'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import {
  buildDashboard,
  describeInChromium,
  loaded,
  openPage,
  openRoute,
  signIn,
} from './browserKit.js'

const ADMIN = 'dashboard-synonyms-token'
const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
// why: a word no page holds, so it lands in the zero-result list
const MISSING_WORD = `せんちゃぽっと${Date.now() % 1000}`

let server: RunningDevServer
let browser: Browser

/** axe-core's WCAG 2.1 A/AA violations in the page (shadow roots included), as readable lines. */
async function accessibilityViolations(page: Page, include?: string): Promise<string[]> {
  // why: evaluated through the debugging protocol, which the dashboard's CSP (no inline script) allows
  await page.evaluate(readFileSync(AXE_SCRIPT, 'utf8'))
  return page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: any }).axe
    const result = await axe.run(selector ? { include: [[selector]] } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })
    return result.violations.map(
      (violation: { id: string; nodes: { target: unknown }[] }) =>
        `${violation.id}: ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`,
    )
  }, include)
}

describeInChromium('search synonyms screen and the search combobox in Chromium', () => {
  beforeAll(async () => {
    await buildDashboard()
    server = await startDevServer({ ADMIN_API_TOKEN: ADMIN })
    browser = await launchChromium()
    const response = await fetch(`${server.url}/api/search?q=${encodeURIComponent(MISSING_WORD)}`)
    expect((await response.json()).totalResults).toBe(0)
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('adds a synonym from the zero-result list and removes it, accessibly', async () => {
    const { page, problems } = await openPage(browser)
    await signIn(page, server.url, ADMIN)
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
    expect(await accessibilityViolations(page)).toEqual([])

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

  it('offers completions as a combobox the keyboard can use', async () => {
    const { page, problems } = await openPage(browser)
    await page.goto(`${server.url}/demo/`)
    const search = page.locator('shop-search')
    const box = search.getByRole('combobox', { name: 'サイト内検索' })
    await box.pressSequentially('抹')
    const listbox = search.getByRole('listbox', { name: '検索候補' })
    await listbox.waitFor()
    await expect(box.getAttribute('aria-expanded')).resolves.toBe('true')
    const options = listbox.getByRole('option')
    expect(await options.count()).toBeGreaterThan(1)
    expect(await options.count()).toBeLessThanOrEqual(8)
    expect(await accessibilityViolations(page, 'shop-search')).toEqual([])

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
