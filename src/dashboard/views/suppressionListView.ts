import { confirmAction } from '../dialogs.js'
import { el, replaceChildren } from '../elements.js'
import { formatTime } from '../texts.js'
import type { RouteAnswer } from '../../lib/routes.js'
import type { ViewContext } from './viewContext.js'

type SuppressionRow = RouteAnswer<'adminSuppressionsList'>['suppressions'][number]

const REASON_LABELS: Record<string, string> = {
  bounce: '宛先不明（バウンス）',
  complaint: '迷惑メール報告',
}

/**
 * The addresses no restock or confirmation e-mail goes to (reported by Resend), with a button
 * to lift one after checking with the shopper.
 */
export function suppressionListView(context: ViewContext): HTMLElement {
  const area = el('div', { class: 'list-area', 'aria-busy': 'true' }, ['読み込み中…'])
  const reload = el('button', { type: 'button' }, ['再読み込み'], { click: () => void load() })

  async function load(): Promise<void> {
    area.setAttribute('aria-busy', 'true')
    const answer = await context.attempt(() => context.api.post('adminSuppressionsList', {}))
    area.setAttribute('aria-busy', 'false')
    if (!answer) return replaceChildren(area, ['読み込めませんでした。'])
    if (answer.suppressions.length === 0) {
      return replaceChildren(area, [el('p', {}, ['配信停止リストは空です。'])])
    }
    replaceChildren(area, [
      el('table', { class: 'records suppressions' }, [
        el('thead', {}, [
          el(
            'tr',
            {},
            ['メールアドレス', '理由', '日時', ''].map((h) => el('th', { scope: 'col' }, [h])),
          ),
        ]),
        el('tbody', {}, answer.suppressions.map(row)),
      ]),
    ])
  }

  function row(entry: SuppressionRow): HTMLElement {
    const label = entry.email ?? '（削除済みのアドレス）'
    const lift = el('button', { type: 'button' }, ['解除'], {
      click: async () => {
        const confirmed = await confirmAction(
          '配信停止の解除',
          `${label} を配信停止リストから外します。ご本人に確認のうえで解除してください。`,
          '解除する',
        )
        if (!confirmed) return
        const done = await context.attempt(() =>
          context.api.post('adminSuppressionsLift', { emailHash: entry.emailHash }),
        )
        if (done) context.notify(`${label} の配信停止を解除しました。`)
        await load()
      },
    })
    return el('tr', {}, [
      el('td', {}, [label]),
      el('td', {}, [REASON_LABELS[entry.reason] ?? entry.reason]),
      el('td', {}, [formatTime(entry.suppressedAt)]),
      el('td', {}, [lift]),
    ])
  }

  void load()
  return el('section', { 'aria-labelledby': 'suppressions-title' }, [
    el('h3', { id: 'suppressions-title' }, ['配信停止リスト（バウンス・迷惑メール報告）']),
    el('p', { class: 'hint' }, [
      'ここにあるアドレスには、再入荷メールも確認メールも送られません。該当する未通知の登録は「配信停止」になっています。',
    ]),
    reload,
    area,
  ])
}
