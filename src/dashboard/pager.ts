import { el } from './elements.js'

/** Page `page` (1-based) of `items`, and how many pages there are (at least 1). */
export function pageOf<T>(items: readonly T[], page: number, pageSize: number) {
  const totalPages = Math.max(1, Math.ceil(items.length / pageSize))
  const current = Math.min(Math.max(1, page), totalPages)
  const start = (current - 1) * pageSize
  return { items: items.slice(start, start + pageSize), page: current, totalPages }
}

/** "前へ / n / m ページ / 次へ" controls; `go` is called with the page to show. */
export function pagerControls(
  page: number,
  totalPages: number,
  total: number,
  label: string,
  go: (page: number, pressed: 'previous' | 'next') => void,
): HTMLElement {
  return el('nav', { class: 'pager', 'aria-label': label }, [
    el('button', { type: 'button', disabled: page <= 1 }, ['前へ'], {
      click: () => go(page - 1, 'previous'),
    }),
    el('span', { 'aria-live': 'polite' }, [`${page} / ${totalPages} ページ（全 ${total} 件）`]),
    el('button', { type: 'button', disabled: page >= totalPages }, ['次へ'], {
      click: () => go(page + 1, 'next'),
    }),
  ])
}

/**
 * After a page change redrew `area`: focus stays on the pager button that was pressed (or its
 * other button when that one is now disabled), not on the page's start.
 */
export function refocusPager(area: HTMLElement, pressed: 'previous' | 'next'): void {
  const buttons = [...area.querySelectorAll<HTMLButtonElement>('.pager button')]
  const wanted = pressed === 'next' ? buttons.at(-1) : buttons[0]
  const target = wanted && !wanted.disabled ? wanted : buttons.find((button) => !button.disabled)
  target?.focus()
}

/**
 * The pager of a list the server pages (`answer` is its page): `show` loads another page, after
 * which the focus is back on the pager; nothing when there is one page.
 */
export function serverPager(
  answer: { page: number; totalPages: number; total: number },
  label: string,
  area: HTMLElement,
  show: (page: number) => Promise<void>,
): HTMLElement | false {
  return (
    answer.totalPages > 1 &&
    pagerControls(answer.page, answer.totalPages, answer.total, label, async (to, pressed) => {
      await show(to)
      refocusPager(area, pressed)
    })
  )
}
