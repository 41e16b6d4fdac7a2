import { el, field } from '../elements.js'

/**
 * The sign-in form. `check` tries the token against the API and answers an error text, or null
 * when it was accepted.
 */
export function signInView(
  check: (token: string) => Promise<string | null>,
  message: string | null,
): HTMLElement {
  const token = el('input', {
    type: 'password',
    name: 'token',
    autocomplete: 'current-password',
    required: true,
    'aria-describedby': 'signin-help',
  })
  const error = el('p', { class: 'error', role: 'alert' }, [message ?? ''])
  const submit = el('button', { type: 'submit', class: 'primary' }, ['サインイン'])
  const form = el('form', { class: 'signin card' }, [
    el('h2', {}, ['サインイン']),
    field('管理用トークン', token),
    el('p', { id: 'signin-help', class: 'hint' }, [
      'サイトの管理者から受け取ったトークン（あなた専用のもの、または共有のもの）を入力してください。できる操作はトークンごとに決まっています。トークンはこのタブを閉じると消去されます。',
    ]),
    error,
    submit,
  ])
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const value = token.value.trim()
    if (!value) {
      error.textContent = 'トークンを入力してください。'
      return
    }
    submit.disabled = true
    error.textContent = ''
    const problem = await check(value)
    submit.disabled = false
    if (problem) {
      error.textContent = problem
      token.select()
    }
  })
  queueMicrotask(() => token.focus())
  return form
}
