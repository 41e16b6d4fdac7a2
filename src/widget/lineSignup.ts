import { CONSENT_WORDING } from '../lib/compliance/consentWording.js'
import { element } from './widgetStyles.js'

/**
 * 「LINEで受け取る」 beside the e-mail sign-up of `<shop-notify>`, shown only when the shop has
 * LINE (the availability answer's `lineSignup`): the LINE consent wording and one button that
 * starts LINE Login for the product (and the variant chosen). The login ends on the service's
 * own page, which says whether the shop can message the shopper in LINE.
 */

export interface LineSignupOptions {
  productName: string | null
  /** The login address for the product and chosen variant; null while a variant must be chosen. */
  loginUrl: () => string | null
}

export function lineSignup(options: LineSignupOptions): HTMLElement {
  const part = element('div', { class: 'line-signup', part: 'line-signup' })
  const error = element('p', { class: 'error', role: 'alert', id: 'line-error' })
  const button = element(
    'button',
    {
      type: 'button',
      part: 'line-button',
      'aria-describedby': 'line-consent-text',
      ...(options.productName ? { 'aria-label': `LINEで受け取る（${options.productName}）` } : {}),
    },
    'LINEで受け取る',
  )
  button.addEventListener('click', () => {
    const url = options.loginUrl()
    if (!url) {
      error.textContent = '種類を選んでください。'
      return
    }
    error.textContent = ''
    window.location.assign(url)
  })
  part.append(
    element('p', { class: 'or' }, 'またはLINEで'),
    element(
      'p',
      { class: 'consent', part: 'consent', id: 'line-consent-text' },
      CONSENT_WORDING['restock-line'],
    ),
    error,
    button,
  )
  return part
}
