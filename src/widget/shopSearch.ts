import type { RouteAnswer, RoutePath } from '../lib/routes.js'
import { markedNodes } from './markedText.js'
import { apiUrl, ApiUnreachableError, callApi, failureText } from './widgetApi.js'
import { element, widgetRoot } from './widgetStyles.js'

/** Quiet time after the last keystroke before searching as you type. */
const TYPING_DELAY_MS = 250

type SearchHit = RouteAnswer<'search'>['results'][number]
const SEARCH_PATH: RoutePath<'search'> = '/api/search'

/**
 * `<shop-search endpoint="…" base="…">`: a search box (GET /api/search) with results as you type
 * (debounced) and on Enter. Titles link to each page's URL path, resolved against `base` (default:
 * the page's own address). Highlighting comes from the server's `<mark>` only (markedText.ts).
 */
export class ShopSearchElement extends HTMLElement {
  #input: HTMLInputElement | null = null
  #summary: HTMLElement | null = null
  #list: HTMLUListElement | null = null
  #timer: ReturnType<typeof setTimeout> | undefined
  #inFlight: AbortController | null = null
  #shownQuery: string | null = null

  connectedCallback(): void {
    if (this.#input) return
    const root = widgetRoot(this)
    const form = element('form', { part: 'form', role: 'search' })
    const input = element('input', {
      id: 'search-input',
      type: 'search',
      name: 'q',
      part: 'input',
      autocomplete: 'off',
      enterkeyhint: 'search',
      'aria-controls': 'search-results',
      'aria-describedby': 'search-summary',
    })
    const field = element('div', { class: 'field', part: 'field' })
    field.append(element('label', { for: 'search-input', part: 'label' }, 'サイト内検索'), input)
    form.append(field)
    const summary = element('p', {
      class: 'status',
      part: 'status',
      id: 'search-summary',
      role: 'status',
    })
    const list = element('ul', { class: 'results', part: 'results', id: 'search-results' })
    list.setAttribute('aria-label', '検索結果')
    input.addEventListener('input', () => {
      clearTimeout(this.#timer)
      this.#timer = setTimeout(() => void this.#search(), TYPING_DELAY_MS)
    })
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      clearTimeout(this.#timer)
      void this.#search(true)
    })
    root.append(form, summary, list)
    this.#input = input
    this.#summary = summary
    this.#list = list
  }

  async #search(force = false): Promise<void> {
    const query = this.#input!.value.trim()
    if (!force && query === this.#shownQuery) return
    this.#inFlight?.abort()
    if (!query) {
      this.#shownQuery = ''
      this.#summary!.textContent = ''
      this.#list!.replaceChildren()
      return
    }
    const controller = new AbortController()
    this.#inFlight = controller
    const url = apiUrl(this, SEARCH_PATH)
    url.searchParams.set('q', query)
    const length = this.getAttribute('excerpt-length')
    if (length) url.searchParams.set('excerpt_length', length)
    this.setAttribute('aria-busy', 'true')
    try {
      const answer = await callApi(url, { signal: controller.signal })
      if (controller.signal.aborted) return
      if (answer.status !== 200 || !Array.isArray(answer.body?.results)) {
        this.#showFailure(failureText(answer))
      } else {
        this.#showResults(query, answer.body.results as SearchHit[])
      }
    } catch (error) {
      if (controller.signal.aborted) return
      if (!(error instanceof ApiUnreachableError)) throw error
      this.#showFailure(failureText(null))
    } finally {
      if (this.#inFlight === controller) {
        this.#inFlight = null
        this.removeAttribute('aria-busy')
      }
    }
  }

  #showFailure(text: string): void {
    this.#shownQuery = null
    this.#list!.replaceChildren()
    this.#summary!.textContent = text
  }

  #showResults(query: string, hits: SearchHit[]): void {
    this.#shownQuery = query
    const base = this.getAttribute('base') || document.baseURI
    this.#list!.replaceChildren(
      ...hits.map((hit) => {
        const item = element('li', { part: 'result' })
        const link = element('a', { part: 'result-link', href: new URL(hit.slug, base).href })
        link.append(...markedNodes(document, hit.highlighted_title || hit.title))
        const excerpt = element('p', { class: 'excerpt', part: 'excerpt' })
        excerpt.append(...markedNodes(document, hit.highlighted_excerpt))
        item.append(link, excerpt)
        return item
      }),
    )
    this.#summary!.textContent = hits.length
      ? `「${query}」の検索結果: ${hits.length}件`
      : `「${query}」に一致するページは見つかりませんでした。`
  }
}
