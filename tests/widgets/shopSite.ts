import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, ConsoleMessage, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'

/** A shop's own site: its pages by path, on 127.0.0.1 and a port of its own. */
interface ShopSite {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string
  close(): void
}

/**
 * Serves `pages` (path → HTML) as a shop's own site on another origin than the service (which is
 * on localhost), as a storefront that pastes the widget's script tag would be; 404 elsewhere.
 */
async function startShopSite(pages: Record<string, string>): Promise<ShopSite> {
  const server = http.createServer((req, res) => {
    const page = pages[req.url ?? '']
    if (page === undefined) return void res.writeHead(404).end()
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() }
}

/**
 * The shop's site for the tests of the `describe` it is called in: `pages()` served from before
 * the first test (so they may name the service's address) until after the last.
 */
export function useShopSite(pages: () => Record<string, string>): { readonly url: string } {
  let site: ShopSite | undefined
  beforeAll(async () => {
    site = await startShopSite(pages())
  })
  afterAll(() => site?.close())
  return {
    get url() {
      if (!site) throw new Error('the shop site starts in beforeAll')
      return site.url
    },
  }
}

/**
 * A shop's page with the widget's script tag, as the README says to paste it (a module script,
 * or a classic one), and `body`.
 */
export function shopPage(
  serviceUrl: string,
  body: string,
  {
    title = 'よそのお店',
    script = 'module',
    style = '',
  }: { title?: string; script?: 'module' | 'classic'; style?: string } = {},
): string {
  const type = script === 'module' ? ' type="module"' : ''
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>${title}</title>
<link rel="icon" href="data:,">${style ? `\n<style>${style}</style>` : ''}
<script${type} src="${serviceUrl}/widget/shop-widget.js"></script>
</head><body>
${body}
</body></html>`
}

/** A fresh page at `url`, with every console error and page error collected. */
export async function openShopPage(
  browser: Browser,
  url: string,
): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext()).newPage()
  const errors: string[] = []
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(String(error)))
  await page.goto(url)
  return { page, errors }
}
