import { afterEach, beforeEach, vi } from 'vitest'

/** One JSON log line (`level`, `event`, `requestId`, …); `{ raw }` for a line that is not JSON. */
export type LogLine = Record<string, any>

/**
 * Captures the JSON log lines (console.log and console.error) into `lines` until
 * `vi.restoreAllMocks()`; keeps them out of the test output. The level is each line's `level`.
 */
export function captureLogs(lines: LogLine[] = []): LogLine[] {
  const capture = (...args: unknown[]) => {
    const text = args.map(String).join(' ')
    try {
      lines.push(JSON.parse(text))
    } catch {
      lines.push({ raw: text })
    }
  }
  vi.spyOn(console, 'log').mockImplementation(capture)
  vi.spyOn(console, 'error').mockImplementation(capture)
  return lines
}

/**
 * Captures the log lines of every test (beforeEach) and restores the mocks after it (afterEach).
 * The returned array is the same for the whole file; it holds the current test's lines only.
 */
export function useLogCapture(): LogLine[] {
  const lines: LogLine[] = []
  beforeEach(() => {
    lines.length = 0
    captureLogs(lines)
  })
  afterEach(() => vi.restoreAllMocks())
  return lines
}

export function eventsOf(lines: LogLine[], event: string): LogLine[] {
  return lines.filter((line) => line.event === event)
}

/** Asserts helper: every captured line, as text, for secret checks. */
export function logText(lines: LogLine[]): string {
  return lines.map((line) => JSON.stringify(line)).join('\n')
}
