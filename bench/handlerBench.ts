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
