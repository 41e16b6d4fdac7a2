/**
 * One JSON line per event, always with the request id, so that a platform log search for the id
 * shows everything one request did. Never pass secrets or tokens in `fields`.
 */

export type LogFields = Record<string, unknown>

export interface Logger {
  readonly requestId: string
  info(event: string, fields?: LogFields): void
  warn(event: string, fields?: LogFields): void
  /** Logs an unexpected failure with its stack (the stack stays in the log, never in a response). */
  error(event: string, error?: unknown, fields?: LogFields): void
}

type Level = 'info' | 'warn' | 'error'

function describeError(error: unknown): LogFields {
  if (error instanceof Error) {
    return { error: error.message, errorName: error.name, stack: error.stack }
  }
  return error === undefined ? {} : { error: String(error) }
}

function write(level: Level, requestId: string, event: string, fields: LogFields): void {
  const line = JSON.stringify({
    level,
    time: new Date().toISOString(),
    requestId,
    event,
    ...fields,
  })
  if (level === 'info') console.log(line)
  else console.error(line)
}

export function createLogger(requestId: string): Logger {
  return {
    requestId,
    info: (event, fields = {}) => write('info', requestId, event, fields),
    warn: (event, fields = {}) => write('warn', requestId, event, fields),
    error: (event, error, fields = {}) =>
      write('error', requestId, event, { ...fields, ...describeError(error) }),
  }
}
