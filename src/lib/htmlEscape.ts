const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

const HTML_SPECIAL = /[&<>"']/
// why: the escape of each code up to `>`, by code
const ESCAPE_BY_CODE: readonly (string | undefined)[] = Array.from(
  { length: 0x3f },
  (_, code) => HTML_ESCAPES[String.fromCharCode(code)],
)

/** Text made safe for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  // why: search excerpts escape several pieces per result; one test, then one pass over the
  // codes, was cheaper than a replace with a callback per character
  if (!HTML_SPECIAL.test(text)) return text
  let html = ''
  let copied = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const escaped = code < 0x3f ? ESCAPE_BY_CODE[code] : undefined
    if (escaped === undefined) continue
    html += text.slice(copied, i) + escaped
    copied = i + 1
  }
  return html + text.slice(copied)
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
}

/**
 * The text an HTML escaper (or a markdown author) wrote with entities, as the reader sees it: the
 * named basics (`&amp;`, `&nbsp;`, …) and numeric ones; any other entity stays as written.
 */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1))
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? entity
  })
}
