import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

interface AxeViolation {
  id: string
  impact: string | null
  nodes: { target: unknown[] }[]
}

/**
 * axe-core's violations on the page as it is now (every rule; only within `include`, a CSS
 * selector, when given), one line each (`rule (impact): targets`). Evaluated through the driver,
 * so the dashboard's CSP (no inline script) does not block it; open shadow roots (the widgets)
 * are checked too.
 */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.evaluate(await readFile(AXE_PATH, 'utf8'))
  }
  const violations = await page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run: (context: unknown) => Promise<unknown> } }).axe
    const result = (await axe.run(selector ? { include: [[selector]] } : document)) as {
      violations: AxeViolation[]
    }
    return result.violations
  }, include)
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`,
  )
}
