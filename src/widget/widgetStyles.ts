/**
 * The widgets' shared styles. Everything a shop would change is a CSS custom property set on the
 * element or a `::part()` (form, field, label, input, button, error, status, notice, success,
 * variants, variant, variant-state, results, result, result-link, excerpt, mark), so a theme
 * restyles them without touching this file.
 *
 * Readable on any host, light or dark: text on the host's own background takes the host's text
 * colour (links are told by their underline, not a colour of ours), and every part that draws a
 * background of its own (fields, button, errors, success, completions, highlights) sets its text
 * colour with it, so a dark theme's light text never lands on a pale box of ours.
 */
export const WIDGET_CSS = `
:host {
  display: block;
  font-family: var(--shop-widget-font, inherit);
  color: var(--shop-widget-color, inherit);
  line-height: 1.6;
}
:host([hidden]) { display: none; }
/* why: the grid display of form must not undo the hidden attribute of a sent form */
[hidden] { display: none !important; }
form { display: grid; gap: var(--shop-widget-gap, 0.75rem); }
form[hidden] { display: none; }
.field { display: grid; gap: 0.25rem; }
label { font-weight: var(--shop-widget-label-weight, 600); }
input {
  font: inherit;
  padding: var(--shop-widget-input-padding, 0.5rem 0.625rem);
  border: var(--shop-widget-border, 1px solid #8a8a8a);
  border-radius: var(--shop-widget-radius, 0.375rem);
  background: var(--shop-widget-input-background, #fff);
  /* why: not inherited; a dark host theme's light text would vanish on the white field */
  color: var(--shop-widget-input-color, #1a1a1a);
}
input:focus-visible, button:focus-visible, a:focus-visible {
  outline: 2px solid var(--shop-widget-focus, #1a56db);
  outline-offset: 2px;
}
input[aria-invalid='true'] { border-color: var(--shop-widget-error, #b42318); }
button {
  font: inherit;
  justify-self: start;
  padding: var(--shop-widget-button-padding, 0.5rem 1.25rem);
  border: 0;
  border-radius: var(--shop-widget-radius, 0.375rem);
  background: var(--shop-widget-accent, #2f5d3a);
  color: var(--shop-widget-accent-text, #fff);
  cursor: pointer;
}
button[disabled] { opacity: 0.6; cursor: progress; }
.line-signup { display: grid; gap: 0.5rem; margin-top: 1rem; }
.line-signup .or { margin: 0; font-size: 0.925em; }
/* why: LINE's own green (#06c755) is too light for white text; this one keeps 4.5:1 */
.line-signup button {
  background: var(--shop-widget-line, #00703c);
  color: var(--shop-widget-line-text, #fff);
}
.error {
  margin: 0;
  font-size: 0.925em;
  padding: 0.125rem 0.5rem;
  border-radius: var(--shop-widget-radius, 0.375rem);
  background: var(--shop-widget-error-background, #fdeceb);
  color: var(--shop-widget-error, #8f1d13);
}
.error:empty, .status:empty { display: none; }
.status { margin: 0; }
.notice { margin: 0 0 0.5rem; font-weight: var(--shop-widget-label-weight, 600); }
/* the variant choice: its text is on the host's background, so it keeps the host's colour */
.variants {
  display: grid; gap: 0.375rem;
  margin: 0 0 0.75rem; padding: 0.5rem 0.75rem 0.625rem;
  border: var(--shop-widget-border, 1px solid #8a8a8a);
  border-radius: var(--shop-widget-radius, 0.375rem);
}
.variants legend { padding: 0 0.25rem; font-weight: var(--shop-widget-label-weight, 600); }
.variant-option { display: flex; align-items: center; gap: 0.5rem; }
.variant-option input {
  width: 1.125rem; height: 1.125rem; margin: 0; padding: 0;
  accent-color: var(--shop-widget-accent, #2f5d3a);
}
.variant { display: flex; flex-wrap: wrap; gap: 0 0.75rem; font-weight: normal; cursor: pointer; }
.variant-name { font-weight: var(--shop-widget-label-weight, 600); }
.variant-state { font-size: 0.925em; }
.consent { margin: 0; font-size: 0.85em; }
.success {
  padding: 0.75rem 1rem;
  border-radius: var(--shop-widget-radius, 0.375rem);
  background: var(--shop-widget-success-background, #ecf6ee);
  color: var(--shop-widget-success-color, #143a1f);
}
.success code { color: inherit; }
.trap { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
.results { list-style: none; margin: 0.5rem 0 0; padding: 0; display: grid; gap: 0.75rem; }
.results a { color: var(--shop-widget-link, inherit); font-weight: 600; text-decoration: underline; }
.excerpt { margin: 0.125rem 0 0; font-size: 0.925em; }
.suggestions {
  list-style: none; margin: 0.25rem 0 0; padding: 0.25rem 0;
  border: 1px solid var(--shop-widget-border, #8a8f98); border-radius: var(--shop-widget-radius, 0.375rem);
  background: var(--shop-widget-background, #fff);
  color: var(--shop-widget-suggestion-color, #1a1a1a);
}
.suggestions[hidden] { display: none; }
.suggestions [role='option'] { padding: 0.25rem 0.75rem; cursor: pointer; }
.suggestions [aria-selected='true'] {
  background: var(--shop-widget-mark, #fff1a8);
  color: var(--shop-widget-mark-color, #1a1a1a);
  outline: 2px solid currentColor;
}
.suggestions .kind { font-size: 0.85em; color: var(--shop-widget-muted, #4b5563); }
mark { background: var(--shop-widget-mark, #fff1a8); color: var(--shop-widget-mark-color, #1a1a1a); }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
`

/** Attaches an open shadow root with the shared styles (once) and returns it. */
export function widgetRoot(host: HTMLElement): ShadowRoot {
  if (host.shadowRoot) return host.shadowRoot
  const root = host.attachShadow({ mode: 'open' })
  const style = document.createElement('style')
  style.textContent = WIDGET_CSS
  root.append(style)
  return root
}

/** `document.createElement` with attributes and text in one call. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text = '',
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  if (text) node.textContent = text
  return node
}
