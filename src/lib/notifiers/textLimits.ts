/** Slack: the text of one section block (D10). */
export const SLACK_SECTION_TEXT_LIMIT = 3000
/** Discord: the `content` of one webhook message (D10). */
export const DISCORD_CONTENT_LIMIT = 2000

const ELLIPSIS = '…'

/**
 * Cuts `text` to at most `limit` UTF-16 units (how Slack and Discord count), ending in `…`.
 * Never splits a surrogate pair, nor an HTML entity such as `&amp;` (a cut entity would show
 * as raw text or, worse, start markup). Text within the limit is returned unchanged.
 */
export function truncateText(text: string, limit: number): string {
  if (text.length <= limit) return text
  let end = limit - ELLIPSIS.length
  const code = text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end -= 1
  // why: Slack entities are short (`&amp;`, `&lt;`, `&gt;`); an `&` within the last few
  // characters with no `;` after it means the cut fell inside one
  const ampersand = text.lastIndexOf('&', end - 1)
  if (ampersand !== -1 && end - ampersand < 6 && !text.slice(ampersand, end).includes(';')) {
    end = ampersand
  }
  return text.slice(0, end) + ELLIPSIS
}
