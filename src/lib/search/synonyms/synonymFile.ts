/** The synonyms file of the content folder, baked into the build (docs/search.md, "Synonyms"). */
export const SYNONYMS_FILE_NAME = 'search-synonyms'

/** A line of the synonyms file that is not a group. */
export class InvalidSynonymLineError extends Error {
  override name = 'InvalidSynonymLineError'
  constructor(file: string, line: number, text: string) {
    super(
      `${file}:${line}: "${text}" is not a synonym group. Write two or more words separated ` +
        'by "=", e.g. "抹茶 = matcha", or start the line with "#" for a comment.',
    )
  }
}

/**
 * The groups of a synonyms file: one group per line, words separated by `=` (`茶筅 = ちゃせん =
 * chasen`), blank lines and lines starting with `#` ignored.
 */
export function parseSynonymFile(text: string, file = SYNONYMS_FILE_NAME): string[][] {
  const groups: string[][] = []
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim()
    if (!trimmed || trimmed.startsWith('#')) return
    const words = [...new Set(trimmed.split('=').map((word) => word.trim()))]
    if (words.length < 2 || words.some((word) => !word)) {
      throw new InvalidSynonymLineError(file, index + 1, trimmed)
    }
    groups.push(words)
  })
  return groups
}
