import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { expect } from 'vitest'

/**
 * Runs the fenced shell blocks of one README section, as written, by a shell against a running
 * server. Only the base URL line `B=http://localhost:8888` is replaced by that server's address.
 * A `curl` function records what every call answered; each call must answer the status and
 * fields of the nearest `→` comment above it (a comment `→ 200 {"success":true,"id":"res_…"}`
 * checks the status, `"success":true`, and an `"id"` starting with `res_`). A `curl` in the
 * condition of an `until` or `while` loop waits: it may answer several times, the status each
 * time, and its last answer carries the fields. Blocks that start a service (`npm start`) are left
 * out: the test starts it.
 */

const README = resolve(import.meta.dirname, '../../README.md')
const BASE_URL_LINE = 'B=http://localhost:8888'
const run = promisify(execFile)

/** The fenced shell blocks of the README section `heading` (`## Try it`), but those starting a service. */
export async function readmeBlocks(heading: string): Promise<string[]> {
  const readme = await readFile(README, 'utf8')
  const start = readme.indexOf(`\n${heading}\n`)
  if (start === -1) throw new Error(`README has no section "${heading}"`)
  const end = readme.indexOf('\n## ', start + 1)
  const section = readme.slice(start, end === -1 ? undefined : end)
  return [...section.matchAll(/```bash\n([\s\S]*?)```/g)]
    .map((match) => match[1])
    .filter((block) => !block.includes('npm start'))
}

interface Expectation {
  comment: string
  status: number
  fragments: string[]
  /** The call is a loop's condition: it repeats until an answer holds every fragment. */
  waits: boolean
}

/** One expectation per `curl` in the script, from the nearest `→` comment above it. */
function expectations(script: string): Expectation[] {
  let current = { comment: '(none)', status: 200, fragments: [] as string[] }
  const expected: Expectation[] = []
  for (const line of script.split('\n')) {
    const trimmed = line.trim()
    if (trimmed.startsWith('#')) {
      const arrow = /→\s*(\d{3})(.*)$/.exec(trimmed)
      if (!arrow) continue
      const fragments = [...arrow[2].matchAll(/"([A-Za-z_]+)":(true|false|-?\d+|"([^"]*)")/g)].map(
        ([, key, value, text]) =>
          text?.endsWith('…') ? `"${key}":"${text.slice(0, -1)}` : `"${key}":${value}`,
      )
      current = { comment: trimmed, status: Number(arrow[1]), fragments }
      continue
    }
    const calls = trimmed.match(/(?:^|[\s$(])curl\s/g)?.length ?? 0
    const waits = /^(until|while)\s/.test(trimmed)
    for (let call = 0; call < calls; call++) expected.push({ ...current, waits })
  }
  return expected
}

// why: records every call (status and body) in order, and answers the body as curl would
const RECORDING_CURL = `curl() {
  local answer status
  answer=$(command curl -sS -w '\\n%{http_code}' "$@")
  status=\${answer##*$'\\n'}
  answer=\${answer%$'\\n'*}
  printf '%s\\n' "$answer"
  printf '@@@ %s\\n%s\\n' "$status" "$answer" >> "$README_LOG"
}
`

/**
 * Runs `blocks` (joined) against `serverUrl`, logging into `logDir`, and checks every call
 * against its `→` comment. Answers how many calls were checked.
 */
export async function runReadmeScript(
  blocks: string[],
  serverUrl: string,
  logDir: string,
): Promise<number> {
  const script = blocks.join('\n')
  expect(script).toContain(BASE_URL_LINE)
  const expected = expectations(script)
  const log = join(logDir, 'calls.log')
  await run('bash', ['-c', RECORDING_CURL + script.replace(BASE_URL_LINE, `B=${serverUrl}`)], {
    env: { PATH: process.env.PATH, README_LOG: log, LANG: 'C.UTF-8' },
    maxBuffer: 16 * 1024 * 1024,
  })
  const calls = (await readFile(log, 'utf8'))
    .split(/^@@@ /m)
    .filter(Boolean)
    .map((record) => {
      const newline = record.indexOf('\n')
      const body = record.slice(newline + 1).trim()
      let normalised = body
      try {
        normalised = JSON.stringify(JSON.parse(body))
      } catch {
        // not JSON: compared as it is
      }
      return { status: Number(record.slice(0, newline)), body: normalised }
    })

  let next = 0
  for (const { comment, status, fragments, waits } of expected) {
    const holdsAll = (body: string) => fragments.every((fragment) => body.includes(fragment))
    while (waits && next < calls.length - 1 && !holdsAll(calls[next].body)) {
      expect(calls[next].status, `waiting call ${next + 1} under "${comment}"`).toBe(status)
      next += 1
    }
    const call = calls[next]
    const label = `call ${next + 1} under "${comment}": ${call?.body.slice(0, 300)}`
    expect(call, label).toBeDefined()
    expect(call.status, label).toBe(status)
    for (const fragment of fragments) expect(call.body, label).toContain(fragment)
    next += 1
  }
  expect(calls).toHaveLength(next)
  return expected.length
}
