/**
 * The one way the dashboard builds DOM: elements with attributes and children, where every
 * string child becomes a text node. Nothing here parses HTML, so user data can never become markup.
 */

type Child = Node | string | number | null | undefined | false
type Attributes = Record<string, string | number | boolean | null | undefined>
type Handlers = { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void }

/** `<tag attributes…>children</tag>`; `on` wires event handlers; false/null attributes are left out. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  children: Child[] = [],
  on: Handlers = {},
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue
    if (name === 'value' && 'value' in element) (element as HTMLInputElement).value = String(value)
    else if (name === 'checked' && element instanceof HTMLInputElement) element.checked = true
    else element.setAttribute(name, value === true ? '' : String(value))
  }
  append(element, children)
  for (const [type, handler] of Object.entries(on)) {
    element.addEventListener(type, handler as EventListener)
  }
  return element
}

/** Appends children; strings and numbers as text nodes. */
export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)))
  }
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, children: Child[]): void {
  parent.replaceChildren()
  append(parent, children)
}

let idSequence = 0

/** A document-unique id, for `label for` / `aria-describedby`. */
export function uniqueId(prefix: string): string {
  idSequence += 1
  return `${prefix}-${idSequence}`
}

/** A labelled control: `<div class="field"><label for>text</label>control</div>`. */
export function field(label: string, control: HTMLElement): HTMLDivElement {
  if (!control.id) control.id = uniqueId('field')
  return el('div', { class: 'field' }, [el('label', { for: control.id }, [label]), control])
}

/** A `<select>` of `[value, label]` options with `selected` chosen. */
export function select(
  options: readonly (readonly [string, string])[],
  selected: string,
  attributes: Attributes = {},
): HTMLSelectElement {
  const element = el('select', attributes)
  for (const [value, label] of options) {
    const option = el('option', { value }, [label])
    option.selected = value === selected
    element.appendChild(option)
  }
  return element
}
