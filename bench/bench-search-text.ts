/**
 * What an answer costs when it needs pages' text past their heads (text shards): the deployed
 * function fetches text shards from the site's origin; here a local HTTP server serves the
 * build's shards. Used by bench-search.ts.
 */
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { decodeSiteSearchData, fileSource } from '../src/lib/search/index/searchDataReader.js'
import {
  fileTextSource,
  originTextSource,
  type SearchTextSource,
} from '../src/lib/search/index/searchText.js'
import { createSiteSearch } from '../src/lib/search/query/siteSearch.js'
import { normalizeQuery } from '../src/lib/search/textNormalization.js'

export interface TailAnswerCosts {
  /** Queries whose answer read one shard or more, of all queries. */
  withShards: number
  queries: number
  /** Per such answer: shards and bytes read. */
  shardsPerAnswer: number
  bytesPerAnswer: number
  /** A fresh instance's answer (index, postings and shards read) over HTTP, p50 and p99. */
  fetchedP50: number
  fetchedP99: number
  /** The same with the shards read from local files. */
  localP50: number
  /** The same instance's next answer (shards kept), p50. */
  warmP50: number
}

/** Each query answered by fresh instances, the shards fetched from a local server. */
export async function tailAnswerCosts(
  dataFile: string,
  queries: readonly string[],
): Promise<TailAnswerCosts> {
  const folder = path.dirname(dataFile)
  let requests = 0
  let bytes = 0
  const server = createServer((req, res) => {
    const file = path.join(folder, decodeURIComponent(new URL(req.url!, 'http://x').pathname))
    readFile(file).then(
      (body) => {
        requests++
        bytes += body.length
        res.writeHead(200, { 'content-type': 'application/json' }).end(body)
      },
      () => res.writeHead(404).end(),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const data = decodeSiteSearchData(fileSource(dataFile))
  try {
    const answer = async (query: string, text: SearchTextSource) => {
      const search = createSiteSearch(() => data)
      const started = performance.now()
      await search.search(normalizeQuery(query), 200, undefined, text)
      const took = performance.now() - started
      const again = performance.now()
      await search.search(normalizeQuery(query), 200, undefined, text)
      return { took, warm: performance.now() - again }
    }
    const remote = originTextSource(origin)
    const local = fileTextSource(folder)
    // why: the code warmed up first, so the figures are the reads, not V8 compiling
    for (const query of queries) await answer(query, local)
    const fetched: number[] = []
    const localTimes: number[] = []
    const warm: number[] = []
    let shards = 0
    let shardBytes = 0
    for (const query of queries) {
      const [before, beforeBytes] = [requests, bytes]
      const { took, warm: next } = await answer(query, remote)
      if (requests === before) continue
      shards += requests - before
      shardBytes += bytes - beforeBytes
      fetched.push(took)
      warm.push(next)
      localTimes.push((await answer(query, local)).took)
    }
    const at = (values: number[], p: number): number =>
      values.sort((a, b) => a - b)[
        Math.min(values.length - 1, Math.floor((values.length * p) / 100))
      ] ?? Number.NaN
    return {
      withShards: fetched.length,
      queries: queries.length,
      shardsPerAnswer: shards / Math.max(1, fetched.length),
      bytesPerAnswer: shardBytes / Math.max(1, fetched.length),
      fetchedP50: at(fetched, 50),
      fetchedP99: at(fetched, 99),
      localP50: at(localTimes, 50),
      warmP50: at(warm, 50),
    }
  } finally {
    data.close()
    await new Promise((resolve) => server.close(resolve))
  }
}
