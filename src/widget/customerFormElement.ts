import { CONSENT_WORDING } from '../lib/compliance/consentWording.js'
import type { HONEYPOT_FIELD } from '../lib/forms/honeypot.js'
import type { RouteAnswer, RoutePath } from '../lib/routes.js'
import { apiUrl, ApiUnreachableError, callApi, failureText, type ApiAnswer } from './widgetApi.js'
import { element, widgetRoot } from './widgetStyles.js'

/** The routes of the customer forms. */
export type FormRoute = 'reservation' | 'notifySignup'

// why: typed by the server's constant (a type-only import), so the two cannot differ and no server
// code enters the storefront bundle
const HONEYPOT: typeof HONEYPOT_FIELD = 'website'

/**
 * A new `Idempotency-Key` (forms/idempotentRequest.ts): a UUID where the page may make one
 * (`crypto.randomUUID` needs a secure context), else 128 random bits in hex.
 */
function newSubmissionKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('')
}

/** One visible field of a customer form; `name` is the API's field name. */
export interface FormFieldSpec {
  name: string
  label: string
  type: 'text' | 'email' | 'number'
  autocomplete: string
  /** Extra input attributes (`min`, `value`, `inputmode`). Default: none. */
  attributes?: Record<string, string>
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
 * Attributes: `product` (slug), `variant` (a variant's id: the element is pinned to it and shows
 * no choice), `product-name` (the product's name, heard by screen readers in the form's and the
 * button's names when a page shows several), `endpoint` (service base URL; default: the script's
 * origin). A product with variants gets a radio group above the form (`showVariants`).
 */
export abstract class CustomerFormElement<Route extends FormRoute> extends HTMLElement {
  protected abstract readonly fields: FormFieldSpec[]
  protected abstract readonly path: RoutePath<Route>
  protected abstract readonly submitLabel: string
  /** Which consent wording is shown beside the button (the one configurable text, docs/compliance.md). */
  protected abstract readonly consentKind: keyof typeof CONSENT_WORDING
  protected abstract successView(answer: RouteAnswer<Route>, sentAt: number): SuccessView

  #form: HTMLFormElement | null = null
  /** What `replaceForm` shows in the form's place, until `restoreForm`. */
  #replacement: HTMLElement | null = null
  #busy = false
  /** Sent successfully: the form is hidden and never sends again. */
  #done = false
  /**
   * The last submission's fields and its `Idempotency-Key`: sending the same fields again (after
   * no answer or a failure) is a retry of that submission and sends the same key, so the service
   * makes one reservation however often it is retried; other fields are a new submission.
   */
  #submission: { body: string; key: string } | null = null

  connectedCallback(): void {
    if (this.#form) return
    const root = widgetRoot(this)
    const productName = this.getAttribute('product-name')?.trim()
    const form = element('form', {
      part: 'form',
      novalidate: '',
      ...(productName ? { 'aria-label': `${productName}: ${this.submitLabel}` } : {}),
    })
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
      element(
        'p',
        { class: 'consent', part: 'consent', id: 'consent-text' },
        CONSENT_WORDING[this.consentKind],
      ),
      element(
        'button',
        {
          part: 'button',
          type: 'submit',
          'aria-describedby': 'consent-text',
          ...(productName ? { 'aria-label': `${this.submitLabel}（${productName}）` } : {}),
        },
        this.submitLabel,
      ),
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
        ...field.attributes,
      }),
      element('p', { class: 'error', part: 'error', id: `${id}-error` }),
    )
    return row
  }

  async #submit(form: HTMLFormElement, status: HTMLElement): Promise<void> {
    // why: a double click or a second Enter must not send a second reservation
    if (this.#busy || this.#done) return
    this.#busy = true
    const button = form.querySelector('button')!
    button.disabled = true
    form.setAttribute('aria-busy', 'true')
    this.#clearErrors(form)
    status.textContent = '送信しています…'
    // why: `source` tells the consent record the shopper saw the wording in this widget
    const body: Record<string, string> = {
      productSlug: this.getAttribute('product') ?? '',
      source: 'widget',
    }
    const variant = this.chosenVariant()
    if (variant) body.variant = variant
    for (const input of form.querySelectorAll('input')) {
      // why: a full-width address typed with the IME on is the same address (the server agrees)
      body[input.name] = input.type === 'email' ? input.value.normalize('NFKC') : input.value
    }
    const json = JSON.stringify(body)
    if (this.#submission?.body !== json) this.#submission = { body: json, key: newSubmissionKey() }
    const sentAt = Date.now()
    let answer: ApiAnswer | null = null
    try {
      answer = await callApi(apiUrl(this, this.path), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': this.#submission.key },
        body: json,
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
    } else if (!answer || !this.handleRefusal(answer)) {
      this.#showErrors(form, answer)
    }
  }

  /** The variant the element is pinned to (`variant` attribute), else the one chosen; or null. */
  protected chosenVariant(): string | null {
    const pinned = this.getAttribute('variant')?.trim()
    if (pinned) return pinned
    return (
      widgetRoot(this).querySelector<HTMLInputElement>('input[name=variant]:checked')?.value ?? null
    )
  }

  /** Shows `part` below the form (another way to sign up). */
  protected appendBelowForm(part: HTMLElement): void {
    this.#form?.after(part)
  }

  /** Shows a product's variant choice (variantChoice.ts) above the form and its notice. */
  protected showVariants(choice: HTMLElement): void {
    const root = widgetRoot(this)
    root.insertBefore(choice, root.querySelector('.notice') ?? this.#form)
  }

  /** A refusal the element handles itself (true), instead of showing it under the fields. */
  protected handleRefusal(_answer: ApiAnswer): boolean {
    return false
  }

  /** Shows `text` above the form (one notice; an empty text removes it). */
  protected showNotice(text: string): void {
    const root = widgetRoot(this)
    let notice = root.querySelector<HTMLElement>('.notice')
    if (!text) return void notice?.remove()
    if (!notice) {
      notice = element('p', { class: 'notice', part: 'notice' })
      root.insertBefore(notice, this.#form)
    }
    notice.textContent = text
  }

  /** Hides the form and shows `replacement` in its place (e.g. another widget). */
  protected replaceForm(replacement: HTMLElement): void {
    if (this.#form) this.#form.hidden = true
    this.#replacement?.remove()
    this.#replacement = replacement
    widgetRoot(this).append(replacement)
  }

  /** Shows the form again in place of what `replaceForm` showed (another variant was chosen). */
  protected restoreForm(): void {
    this.#replacement?.remove()
    this.#replacement = null
    if (this.#form && !this.#done) this.#form.hidden = false
  }

  // why: the variant choice sits above the form, so errors are looked up in the whole widget
  #clearErrors(form: HTMLFormElement): void {
    const root = widgetRoot(this)
    for (const error of [
      ...form.querySelectorAll('.error'),
      ...root.querySelectorAll('.variants .error'),
    ]) {
      error.textContent = ''
    }
    for (const input of root.querySelectorAll('input')) input.removeAttribute('aria-invalid')
  }

  #showErrors(form: HTMLFormElement, answer: ApiAnswer | null): void {
    const root = widgetRoot(this)
    const details = Array.isArray(answer?.body?.details) ? answer.body.details : []
    const general: string[] = []
    let firstInvalid: HTMLInputElement | null = null
    for (const detail of details as { field?: unknown; message?: unknown }[]) {
      const input = root.querySelector<HTMLInputElement>(`#field-${String(detail.field)}`)
      const message = typeof detail.message === 'string' ? detail.message : ''
      if (input && input.name !== HONEYPOT) {
        input.setAttribute('aria-invalid', 'true')
        root.querySelector(`#field-${input.name}-error`)!.textContent = message
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
    this.#done = true
    form.hidden = true
    widgetRoot(this).querySelector('.variants')?.setAttribute('hidden', '')
    const success = element('div', { class: 'success', part: 'success', tabindex: '-1' })
    const reference = element('p', {}, `${view.idLabel}: `)
    reference.append(element('code', { part: 'reference' }, view.id))
    success.append(element('p', {}, view.message), reference)
    status.replaceChildren(success)
    // why: the focused button is gone; focus the answer so keyboard and screen reader users hear it
    success.focus()
    this.dispatchEvent(new CustomEvent('shop-success', { detail: { id: view.id }, bubbles: true }))
  }
}
