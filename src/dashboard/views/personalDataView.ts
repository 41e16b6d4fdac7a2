import { confirmAction } from '../dialogs.js'
import { el, field, replaceChildren } from '../elements.js'
import { productLabel } from '../recordResources.js'
import { formatTime } from '../texts.js'
import { suppressionListView } from './suppressionListView.js'
import type { RouteAnswer } from '../../lib/routes.js'
import type { ViewContext } from './viewContext.js'

type PersonExport = RouteAnswer<'adminPeopleExport'>

// why: `api` is any sign-up or reservation sent without naming its form (a shop's system)
const SOURCE_LABELS: Record<string, string> = {
  widget: 'ショップのウィジェット',
  form: 'ショップのフォーム',
  api: 'その他（システムからの直接登録）',
}

/**
 * 「個人データ」: a person's data by e-mail address, shown and downloadable (APPI Art. 33) or
 * erased (Art. 35), and the list of addresses no e-mail goes to (bounces, complaints).
 */
export function personalDataView(context: ViewContext): HTMLElement {
  const email = el('input', { type: 'email', name: 'email', autocomplete: 'off', required: true })
  const exportButton = el('button', { type: 'submit', class: 'primary' }, ['開示する'])
  const eraseButton = el('button', { type: 'button', class: 'danger' }, ['すべて削除する'])
  const result = el('div', { class: 'result-area', 'aria-live': 'polite' })

  const form = el(
    'form',
    { class: 'filters' },
    [field('メールアドレス', email), exportButton, eraseButton],
    {
      submit: (event) => {
        event.preventDefault()
        void showExport()
      },
    },
  )
  eraseButton.addEventListener('click', () => void erase())

  function address(): string | null {
    const value = email.value.trim()
    if (!value || !email.checkValidity()) {
      context.notify('メールアドレスを正しく入力してください。', 'error')
      email.focus()
      return null
    }
    return value
  }

  async function showExport(): Promise<void> {
    const value = address()
    if (!value) return
    const answer = await context.attempt(() =>
      context.api.post('adminPeopleExport', { email: value }),
    )
    if (!answer) return
    const download = el('button', { type: 'button' }, ['JSON をダウンロード'], {
      click: () => downloadJson(answer),
    })
    replaceChildren(result, [
      el('h3', {}, [`${answer.email} の保存データ`]),
      el('ul', { class: 'people-summary' }, [
        el('li', {}, [`予約: ${answer.reservations.length} 件`]),
        el('li', {}, [`再入荷通知の登録（アーカイブ含む）: ${answer.subscriptions.length} 件`]),
        el('li', {}, [`同意の記録: ${answer.consents.length} 件`]),
        el('li', {}, [`送信した再入荷メール: ${answer.notices.length} 通`]),
        el('li', {}, [answer.suppressed ? '配信停止リスト: 登録あり' : '配信停止リスト: なし']),
      ]),
      answer.consents.length > 0 &&
        el('table', { class: 'records' }, [
          el('caption', {}, ['同意の記録']),
          el('thead', {}, [
            el(
              'tr',
              {},
              ['日時', '経路', '商品', '表示した文言'].map((h) => el('th', { scope: 'col' }, [h])),
            ),
          ]),
          el(
            'tbody',
            {},
            answer.consents.map((consent) =>
              el('tr', {}, [
                el('td', {}, [formatTime(consent.createdAt)]),
                el('td', {}, [SOURCE_LABELS[consent.source] ?? consent.source]),
                el('td', {}, [productLabel(consent.productSlug)]),
                el('td', {}, [consent.wordingText ?? '']),
              ]),
            ),
          ),
        ]),
      download,
    ])
    context.notify('保存データを表示しました。')
  }

  async function erase(): Promise<void> {
    const value = address()
    if (!value) return
    const confirmed = await confirmAction(
      '個人データの削除',
      `${value} の予約・再入荷通知の登録・同意の記録・送信履歴上のアドレスをすべて削除します。元に戻せません。`,
      '削除する',
      { danger: true },
    )
    if (!confirmed) return
    const answer = await context.attempt(() =>
      context.api.post('adminPeopleErase', { email: value }),
    )
    if (!answer) return
    const { erased } = answer
    replaceChildren(result, [
      el('p', {}, [
        `削除しました（予約 ${erased.reservations} 件、登録 ${erased.subscriptions} 件、同意の記録 ${erased.consents} 件、送信履歴 ${erased.notices} 件）。`,
      ]),
    ])
    context.notify('個人データを削除しました。')
    email.value = ''
  }

  return el('section', { 'aria-labelledby': 'people-title' }, [
    el('h2', { id: 'people-title' }, ['個人データ']),
    el('p', { class: 'hint' }, [
      'ご本人からの開示・削除の請求に応じます。操作はログに記録されます（メールアドレスは記録されません）。',
    ]),
    form,
    result,
    suppressionListView(context),
  ])
}

function downloadJson(answer: PersonExport): void {
  const blob = new Blob([JSON.stringify(answer, null, 2)], { type: 'application/json' })
  const link = el('a', { href: URL.createObjectURL(blob), download: 'personal-data.json' })
  document.body.appendChild(link)
  link.click()
  link.remove()
  URL.revokeObjectURL(link.href)
}
