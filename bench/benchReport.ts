/**
 * What every benchmark prints: progress while a phase runs (stderr, so stdout keeps only the
 * figures) and each figure marked against its goal.
 *
 *   progress('search: building 20,000 pages', 800, 2000)  → stderr `[search: building 20,000 pages… 40%]`
 *   figure('cold start', 31.2, 'ms', { below: 50 })       → `cold start  31.2 ms  ✓ goal < 50 ms`
 */

/** A figure's goal: below (<), at most (≤) or at least (≥) a value, in the figure's unit. */
export interface Goal {
  below?: number
  atMost?: number
  atLeast?: number
}

/** Figures that missed their goal so far in this process (a benchmark may list them at the end). */
export const missedGoals: string[] = []

let lastLine = ''

/**
 * Shows how far `phase` is: on a terminal one line rewritten in place, otherwise a line at
 * every quarter. Call it with `done === total` when the phase ends.
 */
export function progress(phase: string, done: number, total: number): void {
  const percent = total > 0 ? Math.floor((done / total) * 100) : 100
  const tty = process.stderr.isTTY === true
  const step = tty ? 1 : 25
  const shown = Math.floor(percent / step) * step
  const line = `[${phase}… ${shown}%]`
  if (line === lastLine) return
  lastLine = line
  if (tty) process.stderr.write(`\r\x1b[K${line}${done >= total ? '\n' : ''}`)
  else process.stderr.write(`${line}\n`)
}

/** A value in its unit, to 2 decimals below 10 and 3 significant ones for ratios and scores. */
export function formatValue(value: number, unit: string): string {
  // why: a unitless figure is a score (MRR 0.997) or a count (500 shard files)
  const unitless = Number.isInteger(value) ? 0 : 3
  const digits = unit === '' ? unitless : Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0
  const number = value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  })
  return unit ? `${number} ${unit}` : number
}

/** `✓ goal < 50 ms` or `✗ goal < 50 ms`; empty without a goal. Records a miss as `name`'s. */
export function mark(name: string | null, value: number, unit: string, goal?: Goal): string {
  if (!goal) return ''
  const parts: string[] = []
  let met = true
  if (goal.below !== undefined) {
    parts.push(`< ${goal.below}${unit ? ` ${unit}` : ''}`)
    met &&= value < goal.below
  }
  if (goal.atMost !== undefined) {
    parts.push(`≤ ${goal.atMost}${unit ? ` ${unit}` : ''}`)
    met &&= value <= goal.atMost
  }
  if (goal.atLeast !== undefined) {
    parts.push(`≥ ${goal.atLeast}${unit ? ` ${unit}` : ''}`)
    met &&= value >= goal.atLeast
  }
  if (!met && name !== null)
    missedGoals.push(`${name}: ${formatValue(value, unit)} (goal ${parts.join(', ')})`)
  return `${met ? '✓' : '✗'} goal ${parts.join(', ')}`
}

/**
 * Prints one figure: its name, value and unit, and its mark when it has a goal; a miss is
 * listed under `missName` (default `name`).
 */
export function figure(
  name: string,
  value: number,
  unit: string,
  goal?: Goal,
  missName = name,
): void {
  const marked = mark(missName, value, unit, goal)
  console.log(
    `  ${padToWidth(name, 44)} ${formatValue(value, unit).padStart(12)}${marked ? `  ${marked}` : ''}`,
  )
}

/** `text` padded to `width` terminal columns (Japanese characters take two). */
export function padToWidth(text: string, width: number): string {
  let columns = 0
  for (const char of text) columns += /[\u1100-\uffdc]/u.test(char) && char > '\u2fff' ? 2 : 1
  return text + ' '.repeat(Math.max(0, width - columns))
}

/** Figures by name, kept to compare two runs (e.g. two sizes of one site). */
export type Figures = Record<string, { value: number; unit: string; goal?: Goal }>

/** Prints each figure of `after` beside its value in `before`, their ratio and its goal's mark. */
export function printGrowth(before: Figures, after: Figures, title: string): void {
  console.log(`\n${title}`)
  for (const [name, { value, unit, goal }] of Object.entries(after)) {
    const earlier = before[name]
    if (!earlier) continue
    const growth = earlier.value === 0 ? '—' : `${(value / earlier.value).toFixed(2)}×`
    console.log(
      `  ${padToWidth(name, 44)} ${formatValue(earlier.value, unit).padStart(10)} → ${formatValue(value, unit).padStart(10)}  ${growth.padStart(7)}  ${mark(null, value, unit, goal)}`,
    )
  }
}
