import { el, uniqueId } from './elements.js'

/**
 * Modal questions on the native `<dialog>` (focus is trapped and Escape cancels, so they work
 * with the keyboard). Each resolves once the staff member answers.
 */

/** One answer a question offers: the value it resolves to, its button's words and look. */
export interface Choice {
  value: string
  label: string
  /** `primary` (the suggested answer), `danger`, or a plain button. Default: plain. */
  look?: 'primary' | 'danger'
}

/** Opens a question whose buttons are `choices` after キャンセル; the value chosen, or null. */
function openDialog(
  title: string,
  body: (Node | string)[],
  choices: readonly Choice[],
): Promise<string | null> {
  const titleId = uniqueId('dialog-title')
  const buttons = choices.map((choice) =>
    el('button', { type: 'submit', value: choice.value, class: choice.look ?? null }, [
      choice.label,
    ]),
  )
  const cancel = el('button', { type: 'button' }, ['キャンセル'])
  const form = el('form', { method: 'dialog' }, [
    el('h2', { id: titleId }, [title]),
    ...body,
    el('div', { class: 'actions' }, [cancel, ...buttons]),
  ])
  const dialog = el('dialog', { 'aria-labelledby': titleId }, [form])
  document.body.appendChild(dialog)
  const known = new Set(choices.map((choice) => choice.value))
  const answer = new Promise<string | null>((resolve) => {
    cancel.addEventListener('click', () => dialog.close('cancel'))
    dialog.addEventListener('close', () => {
      resolve(known.has(dialog.returnValue) ? dialog.returnValue : null)
      dialog.remove()
    })
  })
  dialog.showModal()
  return answer
}

/** Asks to confirm an action; true when confirmed. */
export async function confirmAction(
  title: string,
  message: string,
  confirmLabel: string,
  options: { danger?: boolean } = {},
): Promise<boolean> {
  const look = options.danger ? 'danger' : 'primary'
  const chosen = await openDialog(
    title,
    [el('p', {}, [message])],
    [{ value: 'ok', label: confirmLabel, look }],
  )
  return chosen === 'ok'
}

/** Asks which of several actions to take (`paragraphs` say why); the value chosen, or null. */
export function chooseAction(
  title: string,
  paragraphs: readonly string[],
  choices: readonly Choice[],
): Promise<string | null> {
  return openDialog(
    title,
    paragraphs.map((text) => el('p', {}, [text])),
    choices,
  )
}
