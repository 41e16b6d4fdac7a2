import type { RouteAnswer, RoutePath } from '../lib/routes.js'
import type { TYPING_PARAM as TypingParam } from '../lib/search/query/searchService.js'
import { markedNodes } from './markedText.js'
import { apiUrl, ApiUnreachableError, callApi, failureText } from './widgetApi.js'
import { SuggestionBox } from './searchSuggestions.js'
import { element, widgetRoot } from './widgetStyles.js'

/** Quiet time after the last keystroke before searching as you type. */
const TYPING_DELAY_MS = 250
/**
 * Quiet time after the last keystroke after which the shopper has settled on the query shown:
 * its search is then counted in the keyword log (the as-you-type ones before it are not).
 */
const SETTLE_DELAY_MS = 2000
/** Marks an as-you-type request, which the service answers and does not log (search/query/searchService.ts). */
// why: typed by the server's constant (a type-only import): the two cannot differ
const TYPING_PARAM: typeof TypingParam = 'typing'

type SearchHit = RouteAnswer<'search'>['results'][number]
const SEARCH_PATH: RoutePath<'search'> = '/api/search'

/**
 * `<shop-search endpoint="…" base="…">`: a search box (GET /api/search) with results as you type
 * (debounced) and on Enter, and completions of titles and tags (GET /api/search/suggest) in an
 * accessible combobox (searchSuggestions.ts). Titles link to each page's URL path, resolved against `base` (default:
 * the page's own address). Highlighting comes from the server's `<mark>` only (markedText.ts).
 * As-you-type requests carry `typing=1` and are not logged; a search the shopper settles on
 * (Enter, a completion, SETTLE_DELAY_MS without typing, a result followed, leaving the box or
 * the page) is asked once more without it, and so counted once.
 */
export class ShopSearchElement extends HTMLElement {
  #input: HTMLInputElement | null = null
  #summary: HTMLElement | null = null
  #list: HTMLUListElement | null = null
  #timer: ReturnType<typeof setTimeout> | undefined
  #inFlight: AbortController | null = null
  #shownQuery: string | null = null
  #settleTimer: ReturnType<typeof setTimeout> | undefined
  #lastInputAt = 0
  /** The last query counted (asked without `typing=1`). */
  #countedQuery: string | null = null

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
      'aria-describedby': 'search-summary',
    })
    const field = element('div', { class: 'field', part: 'field' })
    const suggestions = new SuggestionBox(this, input, () => {
      clearTimeout(this.#timer)
      void this.#search(true, true)
    })
    field.append(
      element('label', { for: 'search-input', part: 'label' }, 'サイト内検索'),
      input,
      suggestions.list,
    )
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
      clearTimeout(this.#settleTimer)
      this.#lastInputAt = performance.now()
      this.#timer = setTimeout(() => void this.#search(), TYPING_DELAY_MS)
      this.#settleTimer = setTimeout(() => this.#settle(), SETTLE_DELAY_MS)
    })
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      suggestions.close()
      clearTimeout(this.#timer)
      void this.#search(true, true)
    })
    // why: a shopper who follows a result, leaves the box or the page has settled on its query
    list.addEventListener('click', () => this.#settle())
    input.addEventListener('blur', () => this.#settle())
    window.addEventListener('pagehide', () => this.#settle())
    root.append(form, summary, list)
    this.#input = input
    this.#summary = summary
    this.#list = list
  }

  /** Counts the query shown, once, if the shopper settled on it after typing it. */
  #settle(): void {
    clearTimeout(this.#settleTimer)
    const query = this.#shownQuery
    if (!query || query !== this.#input?.value.trim() || query === this.#countedQuery) return
    this.#countedQuery = query
    // why: keepalive, so the request outlives a page left for the result followed
    void callApi(this.#searchUrl(query, false), { keepalive: true }).catch(() => {})
  }

  #searchUrl(query: string, typing: boolean): URL {
    const url = apiUrl(this, SEARCH_PATH)
    url.searchParams.set('q', query)
    const length = this.getAttribute('excerpt-length')
    if (length) url.searchParams.set('excerpt_length', length)
    if (typing) url.searchParams.set(TYPING_PARAM, '1')
    return url
  }

  /** Searches what the box holds: as you type (`settled` false), or settled (counted). */
  async #search(force = false, settled = false): Promise<void> {
    const query = this.#input!.value.trim()
    if (!force && query === this.#shownQuery) return
    if (settled) {
      clearTimeout(this.#settleTimer)
      this.#countedQuery = query
    }
    this.#inFlight?.abort()
    if (!query) {
      this.#shownQuery = ''
      this.#summary!.textContent = ''
      this.#list!.replaceChildren()
      return
    }
    const controller = new AbortController()
    this.#inFlight = controller
    const url = this.#searchUrl(query, !settled)
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
    // why: an answer that came after the settle time is settled on as soon as it is shown
    if (performance.now() - this.#lastInputAt >= SETTLE_DELAY_MS) this.#settle()
  }
}
