import { decodeHtmlEntities } from '../lib/htmlEscape.js'
/**
 * Turns a highlighted search field of the API (`highlighted_title`, `highlighted_excerpt`: text
 * with HTML characters escaped and matches wrapped in `<mark>…</mark>`) into DOM nodes. Only the
 * server's `<mark>` pairs become elements; everything else becomes text nodes, entities decoded.
 * Nothing from the server is ever parsed as HTML (no innerHTML), so markup in a page or a query
 * can only ever show as text.
 */

const MARKED = /<mark>([\s\S]*?)<\/mark>/g

/** The nodes of a highlighted text, in order: text nodes and `<mark part="mark">` elements. */
export function markedNodes(document: Document, highlighted: string): Node[] {
  const nodes: Node[] = []
  let last = 0
  for (const match of highlighted.matchAll(MARKED)) {
    if (match.index > last) {
      nodes.push(document.createTextNode(decodeHtmlEntities(highlighted.slice(last, match.index))))
    }
    const mark = document.createElement('mark')
    mark.setAttribute('part', 'mark')
    mark.textContent = decodeHtmlEntities(match[1])
    nodes.push(mark)
    last = match.index + match[0].length
  }
  if (last < highlighted.length) {
    nodes.push(document.createTextNode(decodeHtmlEntities(highlighted.slice(last))))
  }
  return nodes
}
