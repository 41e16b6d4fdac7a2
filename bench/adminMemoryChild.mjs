// One measured call of bench-admin-memory.ts, in a process of its own that holds nothing but
// Node and the packaged function (plain JavaScript: no TypeScript loader in the figures).
//
// Usage: node adminMemoryChild.mjs '<json>' with {entry, blobs: {url, token}, siteID,
// deployContext, counters (the latency proxy's counters address), request ({method, url,
// headers?, body?}), warm (send it twice)}. Prints one line
// `@@{status, bytes, digest, peakMb, cold, warm?, nextCursor?, error?}`.
import { Buffer } from 'node:buffer'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { get } from 'node:http'
import { performance } from 'node:perf_hooks'
import process from 'node:process'
import { invokePackaged, loadPackagedHandler } from '../platform/packagedInvocation.mjs'

const input = JSON.parse(process.argv[2])
const handler = await loadPackagedHandler(input.entry)

/**
 * The proxy's counters, read with node:http: fetch would load Node's HTTP client into the
 * process before the function does, and the floor would count it.
 */
function counted() {
  return new Promise((done, fail) => {
    get(input.counters, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk) => (text += chunk))
      response.on('end', () => done(JSON.parse(text)))
    }).on('error', fail)
  })
}

/** One request: its answer, and the time, CPU, blob requests and bytes until it was answered. */
async function once(request, index) {
  const before = await counted()
  const cpu = process.cpuUsage()
  const started = performance.now()
  const invocation = invokePackaged(handler, request, input, index)
  const answer = await invocation.answered
  const ms = performance.now() - started
  const used = process.cpuUsage(cpu)
  const after = await counted()
  // why: work handed to waitUntil (folds) is the next request's cost, not this answer's
  await invocation.settled
  return {
    answer,
    measured: {
      ms,
      cpuMs: (used.user + used.system) / 1000,
      requests: after.requests - before.requests,
      bytes: after.bytes - before.bytes,
    },
  }
}

/**
 * The peak resident memory of this process since it started Node: VmHWM of /proc/self/status.
 * why: `process.resourceUsage().maxRSS` keeps the high-water mark across fork and exec, so it is
 * at least the RSS of the process that spawned this one; on a system without /proc it is the
 * figure there is.
 */
function peakRssMb() {
  const status = existsSync('/proc/self/status') ? readFileSync('/proc/self/status', 'utf8') : ''
  const kilobytes = status.match(/^VmHWM:\s+(\d+) kB$/m)?.[1]
  return Number(kilobytes ?? process.resourceUsage().maxRSS) / 1024
}

const cold = await once(input.request, 0)
const { status, body } = cold.answer
const report = {
  status,
  bytes: Buffer.byteLength(body),
  // why: two runs on the same data answer the same
  digest: createHash('sha256').update(body).digest('hex').slice(0, 12),
  cold: cold.measured,
  nextCursor: body.match(/"nextCursor":"([^"]+)"/)?.[1],
  error: status === 200 ? undefined : body.slice(0, 300),
}
if (input.warm) report.warm = (await once(input.request, 1)).measured
report.peakMb = peakRssMb()
process.stdout.write(`\n@@${JSON.stringify(report)}\n`)
