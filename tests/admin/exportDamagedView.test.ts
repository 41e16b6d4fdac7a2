import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as createModule from '../../netlify/functions/admin-exports.js'
import * as statusModule from '../../netlify/functions/admin-exports-status.js'
import { runExport } from '../../src/lib/admin/listExports.js'
import { createLogger } from '../../src/lib/log.js'
import { ExportJobStore } from '../../src/lib/storage/exportJobStore.js'
import type { Catalog } from '../../src/lib/storage/listing/timeBlobs.js'
import { clearInstanceIndexes } from '../../src/lib/storage/recordCollection.js'
import type { Reservation } from '../../src/lib/storage/records.js'
import {
  at,
  endpoint,
  isolatedScope,
  rebuildScopeIndexes,
  reservation,
  settleScopes,
  writeSettledReservations,
} from './adminTestKit.js'
import { deployOf, download, storedJob } from './exportDeploy.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { eventsOf, useLogCapture } from '../helpers/logs.js'
import { readJson } from '../helpers/requests.js'
import { useApiTokens } from '../helpers/tokens.js'

/**
 * A CSV export of a whole list reads the time view a segment at a time; when a segment turns out
 * gone or unreadable midway (after rows, and parts, were written from the segments before it),
 * the run marks the view damaged (the background rebuild builds it again, never the request)
 * and writes the file again from its first part, reading the list by a scan: every record once,
 * in order, none lost and none twice. A segment gone because a write replaced the view's catalog
 * meanwhile is no damage: the run reads the new catalog from its first part, still without a
 * scan (which holds the whole list). The handlers and the Blobs server are real.
 */

const blobs = useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
const logs = useLogCapture()

const status = endpoint(statusModule, 'admin')
/** More than one segment (1,000 records) of one family, so that one is read before another. */
const PENDING = 1_060
const OTHERS = 40

let scope: ReturnType<typeof isolatedScope>
let deploy: ReturnType<typeof deployOf>
/** Writes dated back a day, so that their deltas have settled and a fold takes them. */
let writer: Awaited<ReturnType<typeof writeSettledReservations>>
/** The active list as the dashboard orders it: newest first, then by id. */
let active: Reservation[]

function newestFirst(records: Reservation[]): Reservation[] {
  return [...records].sort((a, b) =>
    a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : b.createdAt < a.createdAt ? -1 : 1,
  )
}

/** The reservations' time view catalog and its key. */
async function reservationCatalog(): Promise<{ key: string; catalog: Catalog }> {
  const { blobs } = await scope.store.list({ prefix: 'index/' })
  const key = blobs.map((blob) => blob.key).find((k) => /reserv[^/]*\/t1\/catalog$/.test(k))
  if (!key) throw new Error('no time view catalog of the reservations')
  return { key, catalog: (await scope.store.get(key, { type: 'json' })) as Catalog }
}

/** Builds the indexes and the time view (the background rebuild), as a shop past 300 records has them. */
async function rebuild() {
  const outcome = await rebuildScopeIndexes(scope, 'export-damaged-view-test')
  expect(outcome).toBe('complete')
  clearInstanceIndexes()
  const { catalog } = await reservationCatalog()
  expect(catalog.complete).toBe(true)
  return catalog
}

/** The oldest segment of the pending records: read after the newer one of the same family. */
function oldestPendingSegment(catalog: Catalog) {
  const family = catalog.families.findIndex((f) => f[0] === 'active' && f[1] === 'pending')
  const segments = catalog.segments.filter((ref) => ref.family === family)
  expect(segments.length).toBeGreaterThan(1)
  return segments[0]
}

/** The ids of a downloaded CSV, in order. */
async function downloadedIds(exportId: string): Promise<string[]> {
  const response = await download(scope, `exportId=${exportId}`)
  expect(response.status).toBe(200)
  const lines = (await response.text()).replace(/^\uFEFF/, '').split('\r\n')
  expect(lines.at(-1)).toBe('')
  return lines.slice(1, -1).map((line) => line.split(',')[0])
}

describe('CSV export when the time view is found damaged midway', () => {
  beforeAll(async () => {
    scope = isolatedScope()
    const seeded = Array.from({ length: PENDING + OTHERS }, (_, index) =>
      reservation({
        id: `res_dmg-${String(index).padStart(5, '0')}`,
        // why: quotes, braces, brackets and backslashes inside a value, which the segment's
        // records are read past one at a time
        name: index % 7 === 0 ? `山田 "{[\\]}" ${index}` : `山田 ${index}`,
        productSlug: ['blue-mug', 'red-mug'][index % 2],
        status: index < PENDING ? 'pending' : 'confirmed',
        createdAt: at(index),
      }),
    )
    // why: written by a writer dated back, so every delta has settled before the rebuild
    writer = await writeSettledReservations(scope, seeded, 'export-damaged-view-seed')
    active = newestFirst(seeded)
    deploy = deployOf(scope)
    await deploy.start()
  }, 120_000)
  afterAll(() => deploy?.stop())

  it('writes every record once when a segment is gone, read again by a scan; the view waits for the background rebuild', async () => {
    const catalog = await rebuild()
    const gone = oldestPendingSegment(catalog)
    await scope.store.delete(gone.key)
    const context = scope.context()
    const created = await readJson(
      await createModule.default(
        deploy.request('/api/admin/exports', { list: 'reservations' }),
        context,
      ),
    )
    expect(created.status).toBe(200)
    await context.settled()
    const exportId: string = created.body.export.exportId
    const done = await scope.call(status, { exportId })
    expect(done.body.export).toMatchObject({ state: 'done', totalRows: active.length })
    expect(await downloadedIds(exportId)).toEqual(active.map((record) => record.id))
    expect(eventsOf(logs, 'storage.index_damaged').length).toBeGreaterThan(0)
    // why: marked damaged, the view is not read again until the background rebuild builds it
    expect((await reservationCatalog()).catalog.complete).toBe(false)
  })

  it('a run with small parts writes its parts again from the first when a segment is cut short: none twice, none lost', async () => {
    const catalog = await rebuild()
    const cut = oldestPendingSegment(catalog)
    // why: a segment whose last record is cut short: the records before it are read first
    const records = newestFirst(active.filter((r) => r.status === 'pending')).slice(-cut.count)
    const json =
      '{"format":1,"records":[' +
      records
        .slice(0, -1)
        .map((record) => JSON.stringify(record))
        .join(',') +
      ',{"id":"res_cut-short]}'
    const packed = gzipSync(json)
    await scope.store.set(
      cut.key,
      packed.buffer.slice(packed.byteOffset, packed.byteOffset + packed.length) as ArrayBuffer,
    )
    const parts: number[] = []
    // why: the parts in the order the run writes them, to see it start again from the first
    const jobs = new (class extends ExportJobStore {
      override writePart(id: string, part: number, data: string | ArrayBuffer) {
        parts.push(part)
        return super.writePart(id, part, data)
      }
    })(scope.repositories.store)
    const exportId = 'exp_damaged-midway'
    await jobs.create(
      storedJob(exportId, 'queued', { list: 'reservations', filters: { status: 'pending' } }),
    )
    const job = await runExport(exportId, {
      jobs,
      repositories: scope.repositories,
      log: createLogger('test'),
      now: Date.now,
      rowsPerPart: 100,
    })
    const pending = active.filter((record) => record.status === 'pending')
    expect(job).toMatchObject({
      state: 'done',
      totalRows: pending.length,
      writtenRows: pending.length,
      parts: Math.ceil(pending.length / 100),
    })
    // why: the first pass wrote the parts of the newer segment before it met the cut one
    const restart = parts.indexOf(1, 1)
    expect(restart).toBeGreaterThanOrEqual(10)
    expect(parts.slice(restart)).toEqual(Array.from({ length: job.parts }, (_, index) => index + 1))
    expect(await downloadedIds(exportId)).toEqual(pending.map((record) => record.id))
  })

  it('reads the view again when a write replaced a segment midway: the file is the list after the write, read without a scan', async () => {
    const catalog = await rebuild()
    const pending = active.filter((record) => record.status === 'pending')
    const oldest = pending.at(-1)!
    expect(oldestPendingSegment(catalog).count).toBeGreaterThan(0)
    const parts: number[] = []
    // why: once the first part is written, a staff change to the oldest pending record is
    // folded into the view: the segment holding it (not read yet) is replaced, its blob deleted
    const jobs = new (class extends ExportJobStore {
      override async writePart(id: string, part: number, data: string | ArrayBuffer) {
        parts.push(part)
        await super.writePart(id, part, data)
        if (parts.length > 1) return
        await writer.update(oldest, (record) => ({ ...record, status: 'confirmed' }))
        expect(await writer.fold(oldest.productSlug)).toBe(true)
        // why: the writer is another instance; what this one read of the view stays its own
        clearInstanceIndexes()
        blobs.operations.length = 0
      }
    })(scope.repositories.store)
    const exportId = 'exp_replaced-midway'
    await jobs.create(
      storedJob(exportId, 'queued', { list: 'reservations', filters: { status: 'pending' } }),
    )
    blobs.operations.length = 0
    const job = await runExport(exportId, {
      jobs,
      repositories: scope.repositories,
      log: createLogger('test'),
      now: Date.now,
      rowsPerPart: 10,
    })
    const after = pending.slice(0, -1)
    expect(job).toMatchObject({ state: 'done', totalRows: after.length, writtenRows: after.length })
    // why: the segment was gone once the newer one had been read: the second read from part 1
    const restart = parts.indexOf(1, 1)
    expect(restart).toBeGreaterThan(1)
    expect(parts.slice(restart)).toEqual(Array.from({ length: job.parts }, (_, index) => index + 1))
    expect(await downloadedIds(exportId)).toEqual(after.map((record) => record.id))
    // why: read from the view both times: a scan of the list would read every product's
    // base, also that of red-mug, which no write touched
    const scanned = blobs.operations.filter((operation) =>
      operation.url.endsWith('/index/reservations/v1/p/red-mug'),
    )
    expect(scanned).toEqual([])
    expect((await reservationCatalog()).catalog.complete).toBe(true)
  })
})
