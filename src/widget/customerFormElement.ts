import type { HONEYPOT_FIELD } from '../lib/forms/honeypot.js'
import type { RouteAnswer, RoutePath } from '../lib/routes.js'
import { apiUrl, ApiUnreachableError, callApi, failureText, type ApiAnswer } from './widgetApi.js'
import { element, widgetRoot } from './widgetStyles.js'

/** The routes of the customer forms. */
export type FormRoute = 'reservation' | 'notifySignup'

// why: typed by the server's constant (a type-only import), so the two cannot differ and no server
// code enters the storefront bundle
const HONEYPOT: typeof HONEYPOT_FIELD = 'website'

/** One visible field of a customer form; `name` is the API's field name. */
export interface FormFieldSpec {
  name: string
  label: string
  type: 'text' | 'email'
  autocomplete: string
}

/** What the success state shows. */
export interface SuccessView {
  message: string
  /** The id the service answered (shown as the reference number). */
  id: string
  idLabel: string
}

/**
 * The shared form of `<shop-reserve>` and `<shop-notify>`: labelled fields, the hidden honeypot,
 * the server's field errors under each field, one request at a time, a success state.
 * Attributes: `product` (slug), `endpoint` (service base URL; default: the script's origin).
 */
export abstract class CustomerFormElement<Route extends FormRoute> extends HTMLElement {
  protected abstract readonly fields: FormFieldSpec[]
  protected abstract readonly path: RoutePath<Route>
  protected abstract readonly submitLabel: string
  protected abstract successView(answer: RouteAnswer<Route>, sentAt: number): SuccessView

  #form: HTMLFormElement | null = null
  #busy = false

  connectedCallback(): void {
    if (this.#form) return
    const root = widgetRoot(this)
    const form = element('form', { part: 'form', novalidate: '' })
    for (const field of this.fields) form.append(this.#fieldRow(field))
    // why: the honeypot; people never see or reach it, screen readers skip it (aria-hidden)
    const trap = element('div', { class: 'trap', 'aria-hidden': 'true' })
    const trapInput = element('input', {
      id: `field-${HONEYPOT}`,
      name: HONEYPOT,
      type: 'text',
      tabindex: '-1',
      autocomplete: 'off',
    })
    trap.append(element('label', { for: `field-${HONEYPOT}` }, 'Website'), trapInput)
    form.append(
      trap,
      element('p', { class: 'error', part: 'error', role: 'alert', id: 'form-error' }),
      element('button', { part: 'button', type: 'submit' }, this.submitLabel),
    )
    const status = element('div', { class: 'status', part: 'status', role: 'status' })
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      void this.#submit(form, status)
    })
    root.append(form, status)
    this.#form = form
  }

  #fieldRow(field: FormFieldSpec): HTMLElement {
    const id = `field-${field.name}`
    const row = element('div', { class: 'field', part: 'field' })
    row.append(
      element('label', { for: id, part: 'label' }, field.label),
      element('input', {
        id,
        name: field.name,
        type: field.type,
        autocomplete: field.autocomplete,
        required: '',
        part: 'input',
        'aria-describedby': `${id}-error`,
      }),
      element('p', { class: 'error', part: 'error', id: `${id}-error` }),
    )
    return row
  }

  async #submit(form: HTMLFormElement, status: HTMLElement): Promise<void> {
    // why: a double click or a second Enter must not send a second reservation
    if (this.#busy) return
    this.#busy = true
    const button = form.querySelector('button')!
    button.disabled = true
    form.setAttribute('aria-busy', 'true')
    this.#clearErrors(form)
    status.textContent = '送信しています…'
    const body: Record<string, string> = { productSlug: this.getAttribute('product') ?? '' }
    for (const input of form.querySelectorAll('input')) body[input.name] = input.value
    const sentAt = Date.now()
    let answer: ApiAnswer | null = null
    try {
      answer = await callApi(apiUrl(this, this.path), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
    } catch (error) {
      if (!(error instanceof ApiUnreachableError)) throw error
    } finally {
      this.#busy = false
      button.disabled = false
      form.removeAttribute('aria-busy')
      status.textContent = ''
    }
    if (answer?.status === 200 && answer.body?.success === true) {
      // why: a 200 with `success: true` is the route's success answer (its response schema)
      const success = answer.body as RouteAnswer<Route>
      this.#showSuccess(form, status, this.successView(success, sentAt))
    } else {
      this.#showErrors(form, answer)
    }
  }

  #clearErrors(form: HTMLFormElement): void {
    for (const error of form.querySelectorAll('.error')) error.textContent = ''
    for (const input of form.querySelectorAll('input')) input.removeAttribute('aria-invalid')
  }

  #showErrors(form: HTMLFormElement, answer: ApiAnswer | null): void {
    const details = Array.isArray(answer?.body?.details) ? answer.body.details : []
    const general: string[] = []
    let firstInvalid: HTMLInputElement | null = null
    for (const detail of details as { field?: unknown; message?: unknown }[]) {
      const input = form.querySelector<HTMLInputElement>(`#field-${String(detail.field)}`)
      const message = typeof detail.message === 'string' ? detail.message : ''
      if (input && input.name !== HONEYPOT) {
        input.setAttribute('aria-invalid', 'true')
        form.querySelector(`#field-${input.name}-error`)!.textContent = message
        firstInvalid ??= input
      } else if (message) {
        general.push(message)
      }
    }
    const summary = failureText(answer)
    form.querySelector('#form-error')!.textContent = [summary, ...general].join(' ')
    firstInvalid?.focus()
  }

  #showSuccess(form: HTMLFormElement, status: HTMLElement, view: SuccessView): void {
    form.hidden = true
    const success = element('div', { class: 'success', part: 'success', tabindex: '-1' })
    const reference = element('p', {}, `${view.idLabel}: `)
    reference.append(element('code', { part: 'reference' }, view.id))
    success.append(element('p', {}, view.message), reference)
    status.replaceChildren(success)
    this.dispatchEvent(new CustomEvent('shop-success', { detail: { id: view.id }, bubbles: true }))
  }
}
