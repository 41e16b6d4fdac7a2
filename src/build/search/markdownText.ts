import { Lexer, type Token, type Tokens } from 'marked'
import { decodeHtmlEntities } from '../../lib/htmlEscape.js'

/** Plain text of a markdown body: what a reader sees, without markup, raw HTML or link targets. */
export function markdownToPlainText(markdown: string): string {
  return Lexer.lex(markdown)
    .map(tokenText)
    .join('\n')
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim()
}

function tokenText(token: Token): string {
  switch (token.type) {
    case 'html':
      // why: raw HTML (embeds, comments) is markup, not page text
      return ''
    case 'space':
    case 'hr':
      return '\n'
    case 'br':
      return ' '
    case 'code':
    case 'codespan':
    case 'image':
    case 'escape':
      return (token as Tokens.Code | Tokens.Codespan | Tokens.Image | Tokens.Escape).text
    case 'list':
      return (token as Tokens.List).items.map(tokenText).join('\n')
    case 'table': {
      const table = token as Tokens.Table
      const rows = [table.header, ...table.rows]
      return rows.map((cells) => cells.map((cell) => inlineText(cell.tokens)).join(' ')).join('\n')
    }
  }
  if ('tokens' in token && Array.isArray(token.tokens)) return inlineText(token.tokens as Token[])
  if (token.type === 'text') return decodeHtmlEntities((token as Tokens.Text).text)
  return 'text' in token && typeof token.text === 'string' ? token.text : ''
}

function inlineText(tokens: Token[]): string {
  return tokens.map(tokenText).join('')
}
