/**
 * Turns a highlighted search field of the API (`highlighted_title`, `highlighted_excerpt`: text
 * with HTML characters escaped and matches wrapped in `<mark>…</mark>`) into DOM nodes. Only the
 * server's `<mark>` pairs become elements; everything else becomes text nodes, entities decoded.
 * Nothing from the server is ever parsed as HTML (no innerHTML), so markup in a page or a query
 * can only ever show as text.
 */

const MARKED = /<mark>([\s\S]*?)<\/mark>/g

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
}

/** Decodes the entities an HTML escaper writes (named basics and numeric ones); others stay. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] !== '#') return NAMED_ENTITIES[name.toLowerCase()] ?? entity
    const code =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1))
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity
  })
}

/** The nodes of a highlighted text, in order: text nodes and `<mark part="mark">` elements. */
export function markedNodes(document: Document, highlighted: string): Node[] {
  const nodes: Node[] = []
  let last = 0
  for (const match of highlighted.matchAll(MARKED)) {
    if (match.index > last) {
      nodes.push(document.createTextNode(decodeEntities(highlighted.slice(last, match.index))))
    }
    const mark = document.createElement('mark')
    mark.setAttribute('part', 'mark')
    mark.textContent = decodeEntities(match[1])
    nodes.push(mark)
    last = match.index + match[0].length
  }
  if (last < highlighted.length) {
    nodes.push(document.createTextNode(decodeEntities(highlighted.slice(last))))
  }
  return nodes
}
