import { el, replaceChildren } from '../elements.js'

/** A list that could not be loaded: says so instead of looking empty (the error is shown above). */
export function showLoadFailure(listArea: HTMLElement): void {
  replaceChildren(listArea, [el('p', { class: 'empty' }, ['一覧を読み込めませんでした。'])])
  listArea.setAttribute('aria-busy', 'false')
}
