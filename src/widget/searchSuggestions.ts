import { apiUrl, callApi } from './widgetApi.js'
import { element } from './widgetStyles.js'

/** Quiet time after the last keystroke before asking for completions. */
const SUGGEST_DELAY_MS = 150

interface Suggestion {
  text: string
  kind: 'title' | 'tag'
  slug: string | null
}

/**
 * The completions of a search box as an ARIA 1.2 combobox with a list box: the input gets
 * `role="combobox"`, `aria-expanded`, `aria-activedescendant`; ↓/↑ move through the options,
 * Enter or a click chooses one (`onChoose` with its text), Escape closes the list.
 */
export class SuggestionBox {
  readonly list: HTMLUListElement
  readonly #host: HTMLElement
  readonly #input: HTMLInputElement
  readonly #onChoose: (text: string) => void
  #options: Suggestion[] = []
  #active = -1
  #timer: ReturnType<typeof setTimeout> | undefined
  #inFlight: AbortController | null = null

  constructor(host: HTMLElement, input: HTMLInputElement, onChoose: (text: string) => void) {
    this.#host = host
    this.#input = input
    this.#onChoose = onChoose
    this.list = element('ul', {
      id: 'search-suggestions',
      class: 'suggestions',
      part: 'suggestions',
      role: 'listbox',
      'aria-label': '検索候補',
      hidden: '',
    })
    input.setAttribute('role', 'combobox')
    input.setAttribute('aria-autocomplete', 'list')
    input.setAttribute('aria-expanded', 'false')
    input.setAttribute('aria-controls', 'search-suggestions')
    input.addEventListener('input', () => {
      clearTimeout(this.#timer)
      this.#timer = setTimeout(() => void this.#fetch(), SUGGEST_DELAY_MS)
    })
    input.addEventListener('keydown', (event) => this.#key(event))
    input.addEventListener('blur', () => setTimeout(() => this.close(), 150))
  }

  /** Hides the list and forgets the options. */
  close(): void {
    clearTimeout(this.#timer)
    this.#inFlight?.abort()
    this.#show([])
  }

  /** Whether an option is highlighted (Enter then chooses it instead of searching). */
  get hasActive(): boolean {
    return this.#active >= 0
  }

  async #fetch(): Promise<void> {
    const typed = this.#input.value.trim()
    this.#inFlight?.abort()
    if (!typed) return this.#show([])
    const controller = new AbortController()
    this.#inFlight = controller
    const url = apiUrl(this.#host, '/api/search/suggest')
    url.searchParams.set('q', typed)
    try {
      const answer = await callApi(url, { signal: controller.signal })
      if (controller.signal.aborted) return
      const suggestions = answer.status === 200 ? answer.body?.suggestions : null
      this.#show(Array.isArray(suggestions) ? (suggestions as Suggestion[]) : [])
    } catch {
      // why: completions are a help; without them the search box works as before
      if (!controller.signal.aborted) this.#show([])
    }
  }

  #show(options: Suggestion[]): void {
    this.#options = options
    this.#active = -1
    this.list.replaceChildren(
      ...options.map((option, index) => {
        const item = element('li', {
          id: `search-suggestion-${index}`,
          role: 'option',
          part: 'suggestion',
          'aria-selected': 'false',
        })
        item.append(option.text)
        if (option.kind === 'tag') {
          item.append(element('span', { class: 'kind', part: 'suggestion-kind' }, ' タグ'))
        }
        // why: mousedown, not click, so the input keeps its focus
        item.addEventListener('mousedown', (event) => {
          event.preventDefault()
          this.#choose(index)
        })
        return item
      }),
    )
    this.list.hidden = options.length === 0
    this.#input.setAttribute('aria-expanded', String(options.length > 0))
    this.#input.removeAttribute('aria-activedescendant')
  }

  #key(event: KeyboardEvent): void {
    const count = this.#options.length
    if (event.key === 'Escape' && count) {
      event.preventDefault()
      this.close()
    } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && count) {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      // why: positions -1 (what was typed) .. count - 1, wrapping at both ends
      this.#highlight(((this.#active + 1 + step + count + 1) % (count + 1)) - 1)
    } else if (event.key === 'Enter' && this.#active >= 0) {
      event.preventDefault()
      this.#choose(this.#active)
    }
  }

  #highlight(index: number): void {
    this.#active = index
    this.list.querySelectorAll('[role="option"]').forEach((item, n) => {
      item.setAttribute('aria-selected', String(n === this.#active))
    })
    if (this.#active >= 0) {
      this.#input.setAttribute('aria-activedescendant', `search-suggestion-${this.#active}`)
    } else {
      this.#input.removeAttribute('aria-activedescendant')
    }
  }

  #choose(index: number): void {
    const option = this.#options[index]
    if (!option) return
    this.#input.value = option.text
    this.close()
    this.#onChoose(option.text)
  }
}
