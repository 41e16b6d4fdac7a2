import type { Page } from 'playwright-core'

/** The overview and the screens of reservations, subscriptions and notices, as routes. */
export const MAIN_ROUTES = [
  '#/overview',
  '#/reservations',
  '#/reservations/archive',
  '#/subscriptions',
  '#/subscriptions/archive',
  '#/notices',
]

/** Signs in through the form, with the keyboard, and waits for the overview. */
export async function signIn(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/admin/`)
  await page.getByLabel('管理用トークン').fill(token)
  await page.keyboard.press('Enter')
  await page.getByRole('navigation', { name: 'メインメニュー' }).waitFor()
}

/** Opens a dashboard route and waits until its lists have loaded. */
export async function openRoute(page: Page, hash: string): Promise<void> {
  await page.evaluate((target) => (window.location.hash = target), hash)
  await page.waitForFunction(
    (target) =>
      document.getElementById('app')?.dataset.route === target &&
      document.querySelectorAll('[aria-busy="true"]').length === 0,
    hash,
  )
}

/** Waits until no list of the page is loading. */
export async function loaded(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"]').length === 0)
}
