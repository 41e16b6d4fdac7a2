import type { RouteAnswer } from '../lib/routes.js'
import { apiUrl, callApi, type ApiAnswer } from './widgetApi.js'
import { element } from './widgetStyles.js'

/** What GET /api/products/{slug}/availability answers (its response schema). */
export type Availability = RouteAnswer<'productAvailability'>
/** One variant's line of it. */
export type VariantLine = NonNullable<Availability['variants']>[number]

/** Fewer units left than this: the widgets say how many. */
export const SHOW_REMAINING_BELOW = 10

/** The state shown for a variant the shopper cannot have now: the sign-up is offered instead. */
export const UNAVAILABLE_TEXT = '在庫なし — 入荷お知らせ'

/** The availability of the element's `product`, or null when it cannot be known. */
export async function fetchAvailability(host: Element): Promise<Availability | null> {
  const slug = host.getAttribute('product') ?? ''
  if (!slug) return null
  let answer: ApiAnswer
  try {
    answer = await callApi(apiUrl(host, `/api/products/${encodeURIComponent(slug)}/availability`))
  } catch {
    // why: without an answer the form stays; the request itself says what is wrong
    return null
  }
  const body = answer.status === 200 ? answer.body : null
  if (!body || body.success !== true || typeof body.reservable !== 'boolean') return null
  return body as unknown as Availability
}

/**
 * A variant's state as a widget shows it: 予約受付中, 残り n点, or 在庫なし — 入荷お知らせ. The
 * reservation widget goes by the pre-order state (window, units left under the cap); the sign-up
 * also by the stock (0 in stock, or fewer than 10).
 */
export function variantState(line: VariantLine, use: 'reserve' | 'notify'): string {
  if (!line.reservable || (use === 'notify' && line.stock === 0)) return UNAVAILABLE_TEXT
  const counts = [line.remaining, use === 'notify' ? line.stock : null]
  const left = Math.min(...counts.map((count) => count ?? Number.POSITIVE_INFINITY))
  return left < SHOW_REMAINING_BELOW ? `残り${left}点` : '予約受付中'
}

/**
 * The radio group of a product's variants (`<fieldset>` with the legend 種類): one radio per
 * variant, its name and its state (`variantState`), keyboard-operable as radios are (arrow keys
 * move and choose). The error of the `variant` field shows under it (`#field-variant-error`).
 * `onChange` runs with the variant chosen.
 */
export function variantChoice(
  lines: readonly VariantLine[],
  use: 'reserve' | 'notify',
  onChange: (line: VariantLine) => void,
): HTMLFieldSetElement {
  const fieldset = element('fieldset', {
    class: 'variants',
    part: 'variants',
    'aria-describedby': 'field-variant-error',
  })
  fieldset.append(element('legend', { part: 'label' }, '種類'))
  lines.forEach((line, index) => {
    // why: the first radio answers to the field name, so a `variant` error focuses the group
    const id = index === 0 ? 'field-variant' : `field-variant-${index + 1}`
    const radio = element('input', { type: 'radio', name: 'variant', value: line.variant, id })
    radio.addEventListener('change', () => {
      if (radio.checked) onChange(line)
    })
    const label = element('label', { for: id, class: 'variant', part: 'variant' })
    label.append(
      element('span', { class: 'variant-name' }, line.name),
      element('span', { class: 'variant-state', part: 'variant-state' }, variantState(line, use)),
    )
    const option = element('div', { class: 'variant-option' })
    option.append(radio, label)
    fieldset.append(option)
  })
  fieldset.append(element('p', { class: 'error', part: 'error', id: 'field-variant-error' }))
  return fieldset
}

/** The variant chosen in `root`'s radio group, or null when none is. */
export function chosenVariant(root: ParentNode): string | null {
  return root.querySelector<HTMLInputElement>('input[name=variant]:checked')?.value ?? null
}
