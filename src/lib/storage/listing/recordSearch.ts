/**
 * The one search of the record lists: 予約番号 (id), name and e-mail. The list endpoints (`q`)
 * and the dashboard fold both sides the same way, so a shopper's number quoted with full-width
 * letters, a name typed without its space, in katakana where it was stored in hiragana (or the
 * other way) or in half-width kana, and an e-mail in any case all find the record.
 */

const KATAKANA = /[\u30a1-\u30f6]/g
const SPACES = /[\s\u3000]+/g

/** NFKC, lower case, katakana as hiragana, no spaces. */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(KATAKANA, (char) => String.fromCharCode(char.charCodeAt(0) - 0x60))
    .replace(SPACES, '')
}

/** What a record is found by: its id, name and e-mail, each folded, one per line. */
export function searchText(record: { id: string; name?: string | null; email?: string }): string {
  return [record.id, record.name ?? '', record.email ?? ''].map(foldForSearch).join('\n')
}

// why: folding 100,000 records costs more than the rest of a page; the records of a warm
// listing are the same objects from request to request, so each is folded once per instance
const folded = new WeakMap<object, string>()

/** Whether `record` is found by `needle` (already folded, non-empty). */
export function matchesSearch(
  record: { id: string; name?: string | null; email?: string },
  needle: string,
): boolean {
  let text = folded.get(record)
  if (text === undefined) {
    text = searchText(record)
    folded.set(record, text)
  }
  return text.includes(needle)
}
