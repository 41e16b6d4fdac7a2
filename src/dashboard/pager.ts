import { el } from './elements.js'

/**
 * Where the pages of a list paged by cursors start: page 1 at the beginning, every
 * later page at the `nextCursor` of the page before it, so 前へ goes back without the server
 * keeping anything.
 */
export class CursorTrail {
  #starts: (string | null)[] = [null]
  #index = 0

  /** 1-based number of the page shown. */
  get page(): number {
    return this.#index + 1
  }

  /** The cursor to send for the page shown (none for page 1). */
  get cursor(): string | undefined {
    return this.#starts[this.#index] ?? undefined
  }

  /** Back to page 1 (the filters or the search changed). */
  reset(): void {
    this.#starts = [null]
    this.#index = 0
  }

  /** The page shown answered `nextCursor`; whether there is a page after it. */
  answered(nextCursor: string | null | undefined): boolean {
    this.#starts.length = this.#index + 1
    if (nextCursor) this.#starts.push(nextCursor)
    return Boolean(nextCursor)
  }

  /** Moves to page `page` (one step either way); false when that page is not known. */
  go(page: number): boolean {
    const index = page - 1
    if (index < 0 || index >= this.#starts.length) return false
    this.#index = index
    return true
  }
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
