import { CharacterOutputs } from './characterOutputs.js'
import { SoughtTerms } from './termSpellings.js'

/**
 * What finding terms in pages keeps from answer to answer (workspace.ts): each term as it is
 * looked for (its pattern, its usual spelling) and each character that is not plain as it
 * normalises. Excerpts and highlighting (excerpt.ts, firstMatch.ts, highlight.ts) read them.
 */
export interface TextCaches {
  readonly sought: SoughtTerms
  readonly outputs: CharacterOutputs
}

export function createTextCaches(): TextCaches {
  return { sought: new SoughtTerms(), outputs: new CharacterOutputs() }
}
