import type { Context } from '@netlify/functions'

/**
 * What the benchmarks that call the deployed handlers in process share: the Blobs context that
 * points them at a local server (through the latency proxy), a request's context, and the table
 * of median time and blob requests they print.
 */

/** `NETLIFY_BLOBS_CONTEXT` for a Blobs server at `url` with `token`. */
export function blobsContextFor(url: string, token: string): string {
  const context = { edgeURL: url, uncachedEdgeURL: url, siteID: 'bench-site', token }
  return Buffer.from(JSON.stringify(context)).toString('base64')
}

/** A request's context on the deploy context `deployContext` (its own store). */
export function contextFor(deployContext: string): Context {
  const context = {
    requestId: `bench-${crypto.randomUUID()}`,
    deploy: { context: deployContext, id: 'bench', published: false },
    waitUntil: () => undefined,
  }
  return context as unknown as Context
}

/** Times and blob requests of each run of one measured step. */
export interface StepSample {
  times: number[]
  requests: number[]
}

/**
 * A step timer: `measure(label, work)` runs `work`, adds its time and the blob requests `counter`
 * saw to the label's sample in `samples`, and answers what `work` answered. `beforeEach` runs
 * first, off the clock (e.g. dropping what an instance holds, as a fresh worker would).
 */
export function stepTimer(counter: { requests: number }, beforeEach: () => void = () => undefined) {
  const samples = new Map<string, StepSample>()
  const measure = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const sample = samples.get(label) ?? { times: [], requests: [] }
    samples.set(label, sample)
    beforeEach()
    counter.requests = 0
    const started = performance.now()
    const answer = await work()
    sample.times.push(performance.now() - started)
    sample.requests.push(counter.requests)
    return answer
  }
  return { samples, measure }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]

/** Prints `title` and a row per step: its median time and blob requests. */
export function printSteps(title: string, samples: ReadonlyMap<string, StepSample>): void {
  const rows = [...samples].map(([label, sample]) => [
    label,
    `${median(sample.times).toFixed(0)} ms`,
    `${median(sample.requests)}`,
  ])
  console.log(`\n${title}`)
  const header = ['', 'time', 'blob requests']
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)))
  for (const row of [header, ...rows]) {
    console.log(
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
        .join('  '),
    )
  }
}
