import { el, uniqueId } from './elements.js'

/**
 * Modal questions on the native `<dialog>` (focus is trapped and Escape cancels, so they work
 * with the keyboard). Each resolves once the staff member answers.
 */

function openDialog(
  title: string,
  body: (Node | string)[],
  confirmLabel: string,
  options: { danger?: boolean } = {},
): { dialog: HTMLDialogElement; answer: Promise<boolean> } {
  const titleId = uniqueId('dialog-title')
  const confirm = el(
    'button',
    { type: 'submit', value: 'ok', class: options.danger ? 'danger' : 'primary' },
    [confirmLabel],
  )
  const cancel = el('button', { type: 'button' }, ['キャンセル'])
  const form = el('form', { method: 'dialog' }, [
    el('h2', { id: titleId }, [title]),
    ...body,
    el('div', { class: 'actions' }, [cancel, confirm]),
  ])
  const dialog = el('dialog', { 'aria-labelledby': titleId }, [form])
  document.body.appendChild(dialog)
  const answer = new Promise<boolean>((resolve) => {
    cancel.addEventListener('click', () => dialog.close('cancel'))
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'ok')
      dialog.remove()
    })
  })
  dialog.showModal()
  return { dialog, answer }
}

/** Asks to confirm an action; true when confirmed. */
export function confirmAction(
  title: string,
  message: string,
  confirmLabel: string,
  options: { danger?: boolean } = {},
): Promise<boolean> {
  return openDialog(title, [el('p', {}, [message])], confirmLabel, options).answer
}
