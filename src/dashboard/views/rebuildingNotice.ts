import { el } from '../elements.js'

const REBUILDING_TEXT =
  '一覧の索引を作り直しています。表示されていない記録があるかもしれません。数分後に再読み込みしてください。'

/**
 * The line above a list while the server answers `rebuilding: true` (a record index is being
 * rebuilt in the background): the list shows what is indexed so far, and staff should
 * know that before they act on a count.
 */
export function rebuildingNotice(): {
  element: HTMLElement
  show(rebuilding: boolean | undefined): void
} {
  const element = el('p', { class: 'hint', role: 'status', hidden: true })
  return {
    element,
    show(rebuilding) {
      element.hidden = rebuilding !== true
      element.textContent = rebuilding === true ? REBUILDING_TEXT : ''
    },
  }
}
