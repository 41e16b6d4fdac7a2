import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as createModule from '../../netlify/functions/admin-exports.js'
import * as eraseModule from '../../netlify/functions/admin-people-erase.js'
import * as statusModule from '../../netlify/functions/admin-exports-status.js'
import {
  EXPORT_TICKET_TTL_MS,
  issueExportTicket,
  runExport,
} from '../../src/lib/admin/listExports.js'
import { EXPORT_STALL_MS, EXPORT_STALLED_TEXT } from '../../src/lib/admin/exportStalls.js'
import { formatTime } from '../../src/lib/admin/recordCsv.js'
import { exportStatusEndpoint } from '../../src/lib/endpoints/exportEndpoints.js'
import { loadConfig } from '../../src/lib/config.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { createLogger } from '../../src/lib/log.js'
import { ExportJobStore } from '../../src/lib/storage/exportJobStore.js'
import { at, endpoint, isolatedScope, settleScopes } from './adminTestKit.js'
import { deployOf, download, storedJob } from './exportDeploy.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { eventsOf, useLogCapture } from '../helpers/logs.js'
import { readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN, useApiTokens } from '../helpers/tokens.js'

useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
const logs = useLogCapture()

const create = endpoint(createModule, 'admin')
const status = endpoint(statusModule, 'admin')
const erase = endpoint(eraseModule, 'admin')

describe('CSV export of a list by the background function', () => {
  let scope: ReturnType<typeof isolatedScope>
  let deploy: ReturnType<typeof deployOf>
  beforeAll(async () => {
    scope = isolatedScope()
    deploy = deployOf(scope)
    await deploy.start()
  })
  afterAll(() => deploy.stop())

  /** POST /api/admin/exports on this deploy: the background run is started as on Netlify. */
  async function startExport(body: unknown) {
    const context = scope.context()
    const answer = await readJson(
      await createModule.default(deploy.request('/api/admin/exports', body), context),
    )
    await context.settled()
    return answer
  }

  async function seed(productSlug = 'chasen-takayama') {
    const records = []
    for (let index = 0; index < 12; index++) {
      records.push(
        await scope.seedReservation({
          name: index === 3 ? '=HYPERLINK("http://evil.test")' : `山田 ${index}`,
          createdAt: at(index),
          status: index % 2 ? 'confirmed' : 'pending',
          productSlug,
        }),
      )
    }
    return records.reverse()
  }

  it('creates a job, the background writes the CSV, the download streams it with a Japanese name', async () => {
    const newestFirst = await seed()
    const created = await startExport({ list: 'reservations', status: 'pending' })
    expect(created.status).toBe(200)
    expect(created.body.export).toMatchObject({ list: 'reservations', state: 'queued' })
    expect(created.body.export.fileName).toMatch(/^予約-\d{8}-\d{4}\.csv$/)
    const exportId = created.body.export.exportId
    const done = await scope.call(status, { exportId })
    const pending = newestFirst.filter((record) => record.status === 'pending')
    expect(done.body.export).toMatchObject({
      state: 'done',
      totalRows: pending.length,
      writtenRows: pending.length,
      parts: 1,
      downloadPath: `/api/admin/exports/download?exportId=${exportId}`,
    })
    const response = await download(scope, `exportId=${exportId}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="export.csv"; filename*=UTF-8''${encodeURIComponent(done.body.export.fileName)}`,
    )
    const bytes = Buffer.from(await response.arrayBuffer())
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = bytes.toString('utf8').slice(1).split('\r\n')
    expect(lines[0]).toBe(
      '予約番号,受付日時,名前,メールアドレス,商品,商品コード,数量,ステータス,メモ,対応日時,アーカイブ日時,LINE配信状況',
    )
    expect(lines.slice(1, -1).map((line) => line.split(',')[0])).toEqual(pending.map((r) => r.id))
    expect(lines[1]).toContain(',未対応,')
    expect(bytes.toString('utf8')).not.toMatch(/(^|,)=/m)
    expect(bytes.byteLength).toBe(done.body.export.bytes)
  })

  it('writes a large list in parts; each part downloads on its own, and together they are the file', async () => {
    const newestFirst = await seed('kyusu-tokoname')
    const jobs = new ExportJobStore(scope.repositories.store)
    const created = await startExport({
      list: 'reservations',
      productSlug: 'kyusu-tokoname',
      q: '山 田',
    })
    const exportId = created.body.export.exportId
    // why: a second run with small parts; a finished export is never written again, so reset it
    await jobs.update(exportId, (job) => ({ ...job, state: 'queued' }))
    const job = await runExport(exportId, {
      jobs,
      repositories: scope.repositories,
      log: createLogger('test'),
      now: Date.now,
      rowsPerPart: 5,
    })
    const names = newestFirst.filter((record) => record.name.startsWith('山田'))
    expect(job).toMatchObject({ state: 'done', parts: Math.ceil(names.length / 5) })
    const whole = Buffer.from(await (await download(scope, `exportId=${exportId}`)).arrayBuffer())
    const parts = []
    for (let part = 1; part <= job.parts; part++) {
      const response = await download(scope, `exportId=${exportId}&part=${part}`)
      expect(response.status).toBe(200)
      parts.push(Buffer.from(await response.arrayBuffer()))
    }
    expect(Buffer.concat(parts)).toEqual(whole)
    expect(whole.toString('utf8').split('\r\n')).toHaveLength(1 + names.length + 1)
    const beyond = await readJson(await download(scope, `exportId=${exportId}&part=99`))
    expect(beyond.body).toEqual({
      success: false,
      error: `part must be between 1 and ${job.parts}`,
    })
  })

  it('an erase of a person drops every export (they copy records)', async () => {
    const person = await scope.seedReservation({ email: 'erase-me@example.jp' })
    const created = await startExport({ list: 'reservations', q: 'erase-me' })
    const exportId = created.body.export.exportId
    expect((await scope.call(status, { exportId })).body.export.totalRows).toBe(1)
    const erased = await scope.call(erase, { email: person.email })
    expect(erased.status).toBe(200)
    expect((await scope.call(status, { exportId })).status).toBe(404)
    const left = await scope.repositories.store.list({ prefix: 'list-exports/' })
    expect(left.blobs).toEqual([])
  })

  it('a run that died is answered as failed once it has made no progress for 18 minutes', async () => {
    const jobs = new ExportJobStore(scope.repositories.store)
    const T = Date.parse(at(0))
    const statusAt = (ms: number) =>
      endpoint(
        {
          default: defineEndpoint(exportStatusEndpoint({ now: () => ms })),
          config: statusModule.config,
        },
        'admin',
      )
    await jobs.create({ ...storedJob('exp_dying', 'running'), totalRows: 9, writtenRows: 5 })
    await jobs.create(storedJob('exp_never_started', 'queued'))
    await jobs.create(storedJob('exp_finished', 'done'))
    // a run may still be alive: within one invocation (15 min) and Netlify's retries
    const alive = await scope.call(statusAt(T + EXPORT_STALL_MS), { exportId: 'exp_dying' })
    expect(alive.body.export).toMatchObject({ state: 'running', writtenRows: 5 })
    const later = statusAt(T + EXPORT_STALL_MS + 1)
    for (const exportId of ['exp_dying', 'exp_never_started']) {
      const dead = await scope.call(later, { exportId })
      expect(dead).toMatchObject({
        status: 200,
        body: { export: { state: 'failed', error: EXPORT_STALLED_TEXT } },
      })
      expect((await jobs.get(exportId))?.state).toBe('failed')
    }
    expect((await scope.call(later, { exportId: 'exp_finished' })).body.export.state).toBe('done')
    expect(eventsOf(logs, 'export.stalled')).toHaveLength(2)
  })

  it('answers 400, 404 and 409 with clear texts', async () => {
    expect((await scope.call(create, { list: 'everything' })).body.error).toBe(
      'list must be one of reservations, notify, reservations-archive, notify-archive',
    )
    expect((await scope.call(create, { list: 'notify', status: 'shipped' })).body.error).toBe(
      'Invalid status: shipped',
    )
    expect((await scope.call(status, {})).body.error).toBe('exportId is required')
    for (const exportId of ['exp_missing', '../exp_x', 'a/b']) {
      const missing = await scope.call(status, { exportId })
      expect(missing).toMatchObject({ status: 404, body: { error: 'Export not found' } })
    }
    const notFound = await download(scope, 'exportId=exp_missing')
    expect(notFound.status).toBe(404)
    const jobs = new ExportJobStore(scope.repositories.store)
    await jobs.create(storedJob('exp_waiting', 'running'))
    const early = await readJson(await download(scope, 'exportId=exp_waiting'))
    expect(early).toMatchObject({
      status: 409,
      body: { error: 'Export is not ready yet; ask /api/admin/exports/status' },
    })
    expect((await readJson(await download(scope, 'exportId=exp_waiting&part=0'))).status).toBe(400)
  })

  describe('the export ticket', () => {
    const config = () => loadConfig()

    async function queued() {
      const jobs = new ExportJobStore(scope.repositories.store)
      const id = `exp_ticket-${crypto.randomUUID()}`
      await jobs.create(storedJob(id, 'queued'))
      return { id, jobs }
    }

    it('admits its own live ticket once; the same ticket again (a replay) gets 401', async () => {
      const { id, jobs } = await queued()
      const ticket = issueExportTicket(id, config(), Date.now())
      const first = await deploy.background(ticket, id)
      expect(first.status).toBe(200)
      expect((await jobs.get(id))?.state).toBe('done')
      const again = await deploy.background(ticket, id)
      expect(again.status).toBe(401)
      expect(eventsOf(logs, 'export.ticket_rejected').map((line) => line.reason)).toContain(
        'replayed',
      )
    })

    it('refuses a forged ticket, an altered one, the admin token and no ticket', async () => {
      const { id, jobs } = await queued()
      const [payload] = issueExportTicket(id, config(), Date.now()).split('.')
      const forged = `${payload}.${Buffer.alloc(32, 7).toString('base64url')}`
      const otherKey = issueExportTicket(
        id,
        { adminApiToken: 'another', preorderApiToken: null, staffTokens: [] },
        Date.now(),
      )
      for (const ticket of [forged, otherKey, ADMIN_TOKEN, payload, null]) {
        expect((await deploy.background(ticket, id)).status).toBe(401)
      }
      expect((await jobs.get(id))?.state).toBe('queued')
    })

    it('refuses an expired ticket and one for another export', async () => {
      const { id, jobs } = await queued()
      const expired = issueExportTicket(id, config(), Date.now() - EXPORT_TICKET_TTL_MS - 1)
      expect((await deploy.background(expired, id)).status).toBe(401)
      const foreign = issueExportTicket('exp_other', config(), Date.now())
      expect((await deploy.background(foreign, id)).status).toBe(401)
      expect((await jobs.get(id))?.state).toBe('queued')
      expect(eventsOf(logs, 'export.ticket_rejected').map((line) => line.reason)).toEqual(
        expect.arrayContaining(['expired', 'foreign']),
      )
    })
  })
})

describe('CSV export of a whole archive list (read by a scan of every product)', () => {
  it('writes every archived record of every product, most recently archived first', async () => {
    const scope = isolatedScope()
    const deploy = deployOf(scope)
    await deploy.start()
    try {
      const seeded = []
      for (let index = 0; index < 9; index++) {
        seeded.push(
          await scope.seedReservation({
            createdAt: at(index),
            productSlug: ['chasen-takayama', 'kiyomizu-matcha-chawan', 'other-product'][index % 3],
            ...(index % 3 !== 1 ? { isArchived: true, archivedAt: at(100 - index * 7) } : {}),
          }),
        )
      }
      const archived = seeded
        .filter((record) => record.isArchived === true)
        .sort((a, b) => (a.archivedAt! < b.archivedAt! ? 1 : -1))
      const context = scope.context()
      const created = await readJson(
        await createModule.default(
          deploy.request('/api/admin/exports', { list: 'reservations-archive' }),
          context,
        ),
      )
      await context.settled()
      const exportId = created.body.export.exportId
      const done = await scope.call(status, { exportId })
      expect(done.body.export).toMatchObject({ state: 'done', totalRows: archived.length })
      const text = (await (await download(scope, `exportId=${exportId}`)).text()).slice(1)
      const ids = text
        .split('\r\n')
        .slice(1, -1)
        .map((line) => line.split(',')[0])
      expect(ids).toEqual(archived.map((record) => record.id))
    } finally {
      await deploy.stop()
    }
  })
})

describe('CSV export columns: 種類 for a product with variants, LINE配信状況 last', () => {
  let scope: ReturnType<typeof isolatedScope>
  let deploy: ReturnType<typeof deployOf>
  beforeAll(async () => {
    scope = isolatedScope()
    deploy = deployOf(scope)
    await deploy.start()
  })
  afterAll(() => deploy.stop())

  async function exported(body: Record<string, unknown>): Promise<string[]> {
    const context = scope.context()
    const created = await readJson(
      await createModule.default(deploy.request('/api/admin/exports', body), context),
    )
    await context.settled()
    expect(created.status).toBe(200)
    const exportId = created.body.export.exportId
    expect((await scope.call(status, { exportId })).body.export.state).toBe('done')
    const response = await download(scope, `exportId=${exportId}`)
    return (await response.text()).replace(/^\uFEFF/, '').split('\r\n')
  }

  it('gains a 種類 column after 商品, with the variant and its SKU; a list without variants keeps its columns', async () => {
    const ai = await scope.seedReservation({
      productSlug: 'mino-mug',
      variant: 'ai',
      createdAt: at(1),
    })
    await scope.seedReservation({ productSlug: 'mino-mug', variant: 'shiro', createdAt: at(2) })
    const plain = await scope.seedReservation({ productSlug: 'chasen-takayama', createdAt: at(3) })

    const lines = await exported({ list: 'reservations', productSlug: 'mino-mug', variant: 'ai' })
    expect(lines[0]).toBe(
      '予約番号,受付日時,名前,メールアドレス,商品,種類,商品コード,数量,ステータス,メモ,対応日時,アーカイブ日時,LINE配信状況',
    )
    expect(lines.slice(1, -1)).toHaveLength(1)
    expect(lines[1].split(',').slice(0, 1)).toEqual([ai.id])
    expect(lines[1].split(',').slice(4, 7)).toEqual(['美濃焼 マグカップ', '藍', 'SKU-2001'])

    const only = await exported({ list: 'reservations', productSlug: 'chasen-takayama' })
    expect(only[0]).toBe(
      '予約番号,受付日時,名前,メールアドレス,商品,商品コード,数量,ステータス,メモ,対応日時,アーカイブ日時,LINE配信状況',
    )
    expect(only[1].split(',')[0]).toBe(plain.id)

    const every = await exported({ list: 'reservations' })
    expect(every[0]).toContain(',商品,種類,商品コード,')
    expect(every.slice(1, -1)).toHaveLength(3)
  })

  it('ends with LINE配信状況: why a LINE reservation’s last message did not arrive, and when', async () => {
    const at1 = '2026-11-29T01:30:00.000Z'
    const notFriend = await scope.seedReservation({
      productSlug: 'hario-v60-dripper',
      channel: 'line',
      lineUserId: 'U0123456789abcdef0123456789abcdef',
      email: '',
      lineDelivery: { status: 'not-friend', at: at1, reason: 'not a friend' },
      createdAt: at(10),
    })
    const reached = await scope.seedReservation({
      productSlug: 'hario-v60-dripper',
      channel: 'line',
      lineUserId: 'U1123456789abcdef0123456789abcdef',
      email: '',
      createdAt: at(11),
    })
    const byEmail = await scope.seedReservation({
      productSlug: 'hario-v60-dripper',
      createdAt: at(12),
    })
    // the whole list (read from the time view) and one product's (read as the dashboard reads it)
    for (const body of [
      { list: 'reservations' },
      { list: 'reservations', productSlug: 'hario-v60-dripper' },
    ]) {
      const lines = await exported(body)
      expect(lines[0]).toMatch(/,アーカイブ日時,LINE配信状況$/)
      const lastCell = (id: string) =>
        lines
          .find((line) => line.startsWith(`${id},`))
          ?.split(',')
          .at(-1)
      expect(lastCell(notFriend.id)).toBe(
        `LINEで届いていません（友だち追加されていません）・${formatTime(at1)}`,
      )
      expect(lastCell(reached.id)).toBe('')
      expect(lastCell(byEmail.id)).toBe('')
    }
  })
})
