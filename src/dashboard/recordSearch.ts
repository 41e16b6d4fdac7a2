/**
 * The one search box of the record lists: 予約番号 (id), name and e-mail. Both sides are folded
 * the same way, so a shopper's number quoted with full-width letters, a name typed without its
 * space, in katakana where it was stored in hiragana (or the other way) or in half-width kana,
 * and an e-mail in any case all find the record.
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

/** What a record is found by, folded once per load (a keystroke then only compares). */
export function searchText(record: { id: string; name?: string | null; email: string }): string {
  return [record.id, record.name ?? '', record.email].map(foldForSearch).join('\n')
}
