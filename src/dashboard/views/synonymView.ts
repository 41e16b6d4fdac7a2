import type { RouteAnswer } from '../../lib/routes.js'
import { ApiError, type AdminRoute } from '../apiClient.js'
import { el, field, replaceChildren } from '../elements.js'
import type { ViewContext } from './viewContext.js'

type SynonymGroup = RouteAnswer<'adminSearchSynonymsList'>['groups'][number]

// why: the admin API answers in English (as every admin endpoint); staff read Japanese
const SYNONYM_ERRORS: Record<string, string> = {
  'words must be a list of 2 to 10 different words of 1 to 40 characters':
    '2〜10 個の異なる語（1 語 40 文字まで）を「=」で区切って入力してください。',
  'words must differ once normalised (katakana = hiragana, case, width) and hold letters or digits':
    '同じ語が含まれています（カタカナとひらがな、大文字と小文字、全角と半角は同じ語として扱われます）。',
  'At most 500 synonym groups; delete one first':
    '同義語は 500 組までです。不要な組を削除してから追加してください。',
  'Synonym group not found': 'この同義語は見つかりません（すでに削除された可能性があります）。',
}

/** The words typed into the form: separated by `=`, `,`, `、` or new lines. */
function wordsOf(text: string): string[] {
  return text
    .split(/[=,、\n]/)
    .map((word) => word.trim())
    .filter(Boolean)
}

/**
 * Search synonyms: the queries that found nothing (to add a synonym from), the groups staff
 * added (removable) and those built into the site. A group is used by searches within a minute.
 */
export function synonymView(context: ViewContext): HTMLElement {
  const words = el('input', {
    type: 'text',
    name: 'words',
    autocomplete: 'off',
    placeholder: '例: 抹茶 = matcha',
    'aria-describedby': 'synonym-help',
  })
  const form = el('form', { class: 'synonym-form' }, [
    field('同じ意味の語（「=」で区切る）', words),
    el('p', { id: 'synonym-help', class: 'hint' }, [
      'どれかの語で検索すると、ほかの語を含むページも見つかります。追加から 1 分以内に検索に反映されます。',
    ]),
    el('button', { type: 'submit' }, ['同義語を追加']),
  ])
  const zeroArea = el('section', { class: 'card', 'aria-busy': 'true' }, ['読み込み中…'])
  const listArea = el('section', { class: 'card', 'aria-busy': 'true' }, ['読み込み中…'])

  async function send<Name extends AdminRoute>(
    route: Name,
    body: object,
  ): Promise<RouteAnswer<Name> | null> {
    try {
      return await context.api.post(route, body)
    } catch (error) {
      if (error instanceof ApiError && SYNONYM_ERRORS[error.serverMessage]) {
        context.notify(SYNONYM_ERRORS[error.serverMessage]!, 'error')
        return null
      }
      return context.attempt(() => Promise.reject(error))
    }
  }

  async function loadList(): Promise<void> {
    listArea.setAttribute('aria-busy', 'true')
    const answer = await context.attempt(() => context.api.post('adminSearchSynonymsList', {}))
    listArea.setAttribute('aria-busy', 'false')
    if (!answer) return replaceChildren(listArea, [])
    replaceChildren(listArea, [
      el('h3', {}, ['追加した同義語']),
      answer.groups.length === 0
        ? el('p', { class: 'empty' }, ['まだありません。'])
        : el('table', { class: 'synonyms' }, [
            el('caption', {}, ['追加した同義語']),
            el('thead', {}, [
              el('tr', {}, [
                el('th', { scope: 'col' }, ['同じ意味の語']),
                el('th', { scope: 'col' }, ['操作']),
              ]),
            ]),
            el(
              'tbody',
              {},
              answer.groups.map((group) =>
                el('tr', {}, [
                  el('td', {}, [group.words.join(' = ')]),
                  el('td', {}, [
                    el(
                      'button',
                      { type: 'button', 'aria-label': `「${group.words.join(' = ')}」を削除` },
                      ['削除'],
                      { click: () => void remove(group) },
                    ),
                  ]),
                ]),
              ),
            ),
          ]),
      el('h3', {}, ['サイトに組み込みの同義語']),
      answer.builtIn.length === 0
        ? el('p', { class: 'empty' }, ['ありません。'])
        : el(
            'ul',
            { class: 'built-in' },
            answer.builtIn.map((group) => el('li', {}, [group.join(' = ')])),
          ),
    ])
  }

  async function loadZeroResults(): Promise<void> {
    const answer = await context.attempt(() =>
      context.api.post('adminSearchKeywords', { days: 30, limit: 20 }),
    )
    zeroArea.setAttribute('aria-busy', 'false')
    if (!answer) return replaceChildren(zeroArea, [])
    replaceChildren(zeroArea, [
      el('h3', {}, ['検索結果が 0 件だった言葉（30 日間）']),
      answer.zeroResultQueries.length === 0
        ? el('p', { class: 'empty' }, ['まだありません。'])
        : el(
            'ul',
            { class: 'zero-results' },
            answer.zeroResultQueries.map(({ query, count }) =>
              el('li', {}, [
                `${query}（${count} 回）`,
                ' ',
                el(
                  'button',
                  { type: 'button', 'aria-label': `「${query}」の同義語を追加` },
                  ['同義語を追加'],
                  {
                    click: () => {
                      words.value = `${query} = `
                      words.focus()
                    },
                  },
                ),
              ]),
            ),
          ),
    ])
  }

  async function remove(group: SynonymGroup): Promise<void> {
    const answer = await send('adminSearchSynonymsRemove', { id: group.id })
    if (!answer) return
    context.notify(`「${group.words.join(' = ')}」を削除しました。`)
    await loadList()
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void (async () => {
      const list = wordsOf(words.value)
      const answer = await send('adminSearchSynonymsAdd', {
        words: list,
      })
      if (!answer) return
      words.value = ''
      context.notify(
        `「${answer.group.words.join(' = ')}」を追加しました。1 分以内に検索に反映されます。`,
      )
      await loadList()
    })()
  })

  void loadZeroResults()
  void loadList()
  return el('div', { class: 'synonym-view' }, [
    el('h2', {}, ['検索の同義語']),
    form,
    el('div', { class: 'cards' }, [zeroArea, listArea]),
  ])
}
