/**
 * Quiet hours: the hours of the Japanese night when no automatic e-mail goes out (`QUIET_HOURS`,
 * default `21-8`, Japan time). What falls due inside them waits for their end and then goes in
 * the order it fell due (restock/dueSends.ts). Japan has no daylight saving time, so a JST hour
 * is a fixed UTC hour. Plain data and arithmetic only: the dashboard's bundle imports it to ask
 * before a manual send at night.
 */

/** A window of JST hours: quiet from `from`:00 until `until`:00 (across midnight when `from` > `until`). */
export interface QuietHours {
  /** The hour quiet hours start, JST, 0–23. */
  from: number
  /** The hour they end, JST, 0–24 (24 is midnight). */
  until: number
}

/** The window when `QUIET_HOURS` is unset. */
export const DEFAULT_QUIET_HOURS = '21-8'

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS
const JST_OFFSET_MS = 9 * HOUR_MS

/**
 * `21-8` (two JST hours, quiet from the first until the second) as a window, `off` as null, and
 * anything else as `invalid`. The two hours may not be the same (which would mean all day or
 * never).
 */
export function parseQuietHours(text: string): QuietHours | null | 'invalid' {
  const value = text.trim().toLowerCase()
  if (value === 'off') return null
  const match = /^(\d{1,2})\s*-\s*(\d{1,2})$/.exec(value)
  if (!match) return 'invalid'
  const from = Number(match[1])
  const until = Number(match[2])
  if (from > 23 || until > 24 || from === until % 24) return 'invalid'
  return { from, until }
}

/** Milliseconds since 00:00 JST of the day `at` falls on. */
function jstTimeOfDay(at: number): number {
  return (((at + JST_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS
}

/** Whether `at` (ms since the epoch) falls inside the quiet hours. */
export function isQuiet(quiet: QuietHours, at: number): boolean {
  const time = jstTimeOfDay(at)
  const from = quiet.from * HOUR_MS
  const until = quiet.until * HOUR_MS
  return from < until ? time >= from && time < until : time >= from || time < until
}

/**
 * When something due at `at` may go: `at` itself outside quiet hours (or without any), else the
 * end of the quiet hours `at` falls in.
 */
export function sendableAt(quiet: QuietHours | null, at: number): number {
  if (!quiet || !isQuiet(quiet, at)) return at
  const dayStart = at - jstTimeOfDay(at)
  const end = dayStart + quiet.until * HOUR_MS
  return end > at ? end : end + DAY_MS
}

/** `21:00〜8:00`: the window as staff read it. */
export function quietHoursLabel(quiet: QuietHours): string {
  return `${quiet.from}:00〜${quiet.until}:00`
}
