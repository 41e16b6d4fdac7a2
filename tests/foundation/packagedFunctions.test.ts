import { execFile } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { zipFunctions } from '@netlify/zip-it-and-ship-it'
import extractZip from 'extract-zip'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mapWithConcurrency } from '../../src/lib/concurrency.js'
import { ROUTES } from '../../src/lib/routes.js'
import type { NotificationHistory } from '../../src/lib/storage/records.js'
import { createUnsubscribeToken } from '../../src/lib/compliance/unsubscribeToken.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { packageSettings } from '../../platform/functionPackages.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import { ADMIN_TOKEN, PREORDER_TOKEN } from '../helpers/tokens.js'

/**
 * Every function as Netlify ships it: netlify.toml read by Netlify's config reader, all functions
 * packaged in one `zipFunctions` call of @netlify/zip-it-and-ship-it (as a Netlify build does),
 * each archive unzipped and invoked in its own Node process through the entry point Netlify
 * generated (platform/packagedFunctionRunner.mjs), with the Blobs context handed over as the
 * platform hands it over. Writes must land in the Blobs server, in the deploy preview's own store.
 */

const run = promisify(execFile)
const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
const RUNNER = path.join(repoRoot, 'platform/packagedFunctionRunner.mjs')
const SITE = 'https://deploy-preview-3--shop-example.netlify.app'
const DEPLOY_CONTEXT = 'deploy-preview'
const RESERVED = 'chasen-takayama'
const WAITED_FOR = 'hario-v60-dripper'

interface PackagedRequest {
  method: string
  path: string
  token?: string
  body?: unknown
}
interface PackagedAnswer {
  status: number
  headers: Record<string, string>
  body: string
  json: any
}

interface Packaged {
  name: string
  bundler: string
  runtimeAPIVersion: number
  schedule?: string
  invocationMode?: string
  directory: string
  entry: string
}

const blobs = useBlobsServer()
let out: string
let packaged: Map<string, Packaged>
let written: { reservationId: string; subscriptionId: string; notificationId: string } | null = null

async function packageEverything(): Promise<Map<string, Packaged>> {
  const results = await zipFunctions([path.join(repoRoot, 'netlify/functions')], out, {
    archiveFormat: 'zip',
    basePath: repoRoot,
    repositoryRoot: repoRoot,
    config: await packageSettings(repoRoot),
  })
  const entries = await mapWithConcurrency(results, 4, async (result: any) => {
    const directory = path.join(out, 'unzipped', result.name)
    await extractZip(result.path, { dir: directory })
    const item: Packaged = {
      name: result.name,
      bundler: result.bundler,
      runtimeAPIVersion: result.runtimeAPIVersion,
      schedule: result.schedule,
      invocationMode: result.invocationMode,
      directory,
      entry: path.join(directory, result.entryFilename),
    }
    return [result.name, item] as const
  })
  return new Map(entries)
}

/** Runs requests, in order, against one packaged function in a fresh Node process. */
async function invoke(name: string, requests: PackagedRequest[]): Promise<PackagedAnswer[]> {
  const item = packaged.get(name)
  if (!item) throw new Error(`${name} was not packaged`)
  const input = {
    entry: item.entry,
    blobs: { url: blobs.url, token: 'test-token' },
    siteID: 'test-site',
    deployContext: DEPLOY_CONTEXT,
    requests: requests.map((request) => ({
      method: request.method,
      url: `${SITE}${request.path}`,
      headers: {
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    })),
  }
  // why: only what Netlify would set; the Blobs context must come from the invocation
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    ADMIN_API_TOKEN: ADMIN_TOKEN,
    PREORDER_API_TOKEN: PREORDER_TOKEN,
    UNSUBSCRIBE_SECRET: 'packaged-unsubscribe-secret',
    URL: 'https://shop-example.netlify.app',
    SITE_URL: 'https://shop.example',
  }
  const { stdout } = await run(process.execPath, [RUNNER, JSON.stringify(input)], {
    cwd: tmpdir(),
    env,
    maxBuffer: 16 * 1024 * 1024,
  })
  const line = stdout.split('\n').find((text) => text.startsWith('PACKAGED_RESULT '))
  if (!line) throw new Error(`${name} printed no result:\n${stdout}`)
  return (JSON.parse(line.slice('PACKAGED_RESULT '.length)) as PackagedAnswer[]).map((answer) => {
    let json: unknown = null
    try {
      json = JSON.parse(answer.body)
    } catch {
      json = null
    }
    return { ...answer, json }
  })
}

beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'packaged-all-'))
  packaged = await packageEverything()
}, 300_000)

afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true })
})

describe('every function, packaged by Netlify and invoked through its entry point', () => {
  it('packages every file of netlify/functions as a v2 function with the file tracer (node_bundler is not used)', async () => {
    const files = (await readdir(path.join(repoRoot, 'netlify/functions')))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => file.slice(0, -3))
      .sort()
    expect([...packaged.keys()].sort()).toEqual(files)
    for (const item of packaged.values()) {
      expect([item.name, item.runtimeAPIVersion, item.bundler]).toEqual([item.name, 2, 'nft'])
    }
    expect(packaged.get('resume-stalled-deliveries')?.schedule).toBe('*/10 * * * *')
    expect(packaged.get('notify-deliver-background')?.invocationMode).toBe('background')
  })

  it('write through the Blobs context of the invocation, into the preview’s own store (D12)', async () => {
    const [reservation] = await invoke('reservation', [
      {
        method: 'POST',
        path: '/api/reservation',
        body: { name: '梱包 太郎', email: 'packaged@example.com', productSlug: RESERVED },
      },
    ])
    expect(reservation.status).toBe(200)
    const [signup] = await invoke('notify-signup', [
      {
        method: 'POST',
        path: '/api/notify-signup',
        body: { email: 'packaged@example.com', productSlug: WAITED_FOR },
      },
    ])
    expect(signup.status).toBe(200)
    const [send] = await invoke('admin-notify-send', [
      {
        method: 'POST',
        path: '/api/admin/notify/send',
        token: ADMIN_TOKEN,
        body: { productSlug: WAITED_FOR, emailTitle: '再入荷', emailBody: '入荷しました。' },
      },
    ])
    expect(send.status).toBe(200)
    written = {
      reservationId: reservation.json.reservationId,
      subscriptionId: signup.json.subscriptionId,
      notificationId: send.json.notificationId,
    }

    const preview = openRepositories(fakeContext({ deployContext: DEPLOY_CONTEXT }))
    const production = openRepositories(fakeContext({ deployContext: 'production' }))
    const storedReservation = await preview.reservations.get({
      id: written.reservationId,
      productSlug: RESERVED,
    })
    expect(storedReservation).toMatchObject({ email: 'packaged@example.com', status: 'pending' })
    expect(
      await preview.subscriptions.get({ id: written.subscriptionId, productSlug: WAITED_FOR }),
    ).toMatchObject({ status: 'notified' })
    const history = (await preview.history.get({
      id: written.notificationId,
    })) as NotificationHistory
    expect(history).toMatchObject({ deliveryMode: 'record-only', deliveryState: 'complete' })
    expect((await production.reservations.list()).records).toEqual([])
  }, 120_000)

  it('answer every function: wrong method 405, no token 401, and a real request', async () => {
    expect(written).not.toBeNull()
    const { reservationId, subscriptionId, notificationId } = written!
    const unsubscribeToken = createUnsubscribeToken(
      { id: subscriptionId, productSlug: WAITED_FOR },
      'packaged-unsubscribe-secret',
    )
    const real: Record<string, PackagedRequest & { expect: (answer: PackagedAnswer) => void }> = {
      'admin-reservations-list': {
        method: 'POST',
        path: '/api/admin-reservations-list',
        token: ADMIN_TOKEN,
        body: { productSlug: RESERVED },
        expect: (answer) => expect(answer.body).toContain(reservationId),
      },
      'admin-notify-list': {
        method: 'POST',
        path: '/api/admin-notify-list',
        token: ADMIN_TOKEN,
        body: { productSlug: WAITED_FOR },
        expect: (answer) => expect(answer.body).toContain(subscriptionId),
      },
      'admin-reservations-status': {
        method: 'POST',
        path: '/api/admin-reservations-status',
        token: ADMIN_TOKEN,
        body: { id: reservationId, productSlug: RESERVED, status: 'confirmed' },
        expect: (answer) => expect(answer.json.success).toBe(true),
      },
      'admin-notify-status': {
        method: 'POST',
        path: '/api/admin-notify-status',
        token: ADMIN_TOKEN,
        body: { id: 'ntf_1-missing', productSlug: WAITED_FOR, status: 'notified' },
        expect: (answer) => expect(answer.json.error).toBe('Subscription not found'),
      },
      'admin-stats': {
        method: 'POST',
        path: '/api/admin-stats',
        token: ADMIN_TOKEN,
        body: {},
        expect: (answer) => expect(answer.json.stats.reservations.total).toBe(1),
      },
      'admin-notify-resume': {
        method: 'POST',
        path: '/api/admin/notify/resume',
        token: ADMIN_TOKEN,
        body: { notificationId },
        expect: (answer) =>
          expect(answer.json).toMatchObject({ deliveryState: 'complete', started: false }),
      },
      'notify-unsubscribe': {
        method: 'GET',
        path: `/api/notify-unsubscribe?token=${encodeURIComponent(unsubscribeToken)}`,
        expect: (answer) => expect(answer.headers['content-type']).toContain('text/html'),
      },
      'product-availability': {
        method: 'GET',
        path: '/api/products/chasen-takayama/availability',
        expect: (answer) => expect(answer.json).toMatchObject({ success: true, remaining: null }),
      },
      search: {
        method: 'GET',
        path: `/api/search?q=${encodeURIComponent('入荷')}`,
        expect: (answer) => expect(answer.body).toContain('news/yoyaku-shohin-nyuka'),
      },
      'admin-people-export': {
        method: 'POST',
        path: '/api/admin/people/export',
        token: ADMIN_TOKEN,
        body: { email: 'packaged@example.com' },
        expect: (answer) => expect(answer.json.subscriptions[0].id).toBe(subscriptionId),
      },
      'retention-purge': {
        method: 'POST',
        path: '/.netlify/functions/retention-purge',
        body: { next_run: '2026-11-24T00:00:00.000Z' },
        expect: (answer) => expect(answer.json).toMatchObject({ success: true }),
      },
      'resume-stalled-deliveries': {
        method: 'POST',
        path: '/.netlify/functions/resume-stalled-deliveries',
        body: { next_run: '2026-11-23T13:10:00.000Z' },
        expect: (answer) => expect(answer.json).toMatchObject({ success: true, resumed: [] }),
      },
    }
    const answers = await mapWithConcurrency([...packaged.keys()], 2, async (name) => {
      // why: every admin endpoint and background function requires a token group or a ticket (§5)
      const route = Object.values(ROUTES).find((entry) => entry.function === name)
      const guarded = route !== undefined && route.auth !== 'none'
      const requests: PackagedRequest[] = [{ method: 'PUT', path: '/any' }]
      if (guarded) {
        const method = route.methods[0]
        requests.push(
          method === 'GET' ? { method, path: '/any' } : { method, path: '/any', body: {} },
        )
      }
      if (real[name]) requests.push(real[name])
      const [wrongMethod, ...rest] = await invoke(name, requests)
      return { name, guarded, wrongMethod, noToken: guarded ? rest[0] : null, real: rest.at(-1) }
    })
    const summary = answers.map((answer) => ({
      name: answer.name,
      wrongMethod: answer.wrongMethod.status,
      allow: Boolean(answer.wrongMethod.headers.allow),
      noToken: answer.noToken?.status ?? null,
    }))
    expect(summary).toEqual(
      answers.map((answer) => ({
        name: answer.name,
        wrongMethod: 405,
        allow: true,
        noToken: answer.guarded ? 401 : null,
      })),
    )
    expect(answers.filter((answer) => answer.guarded).length).toBeGreaterThanOrEqual(16)
    for (const answer of answers) {
      const request = real[answer.name]
      if (!request) continue
      expect({ name: answer.name, status: answer.real!.status }).toEqual({
        name: answer.name,
        status: answer.name === 'admin-notify-status' ? 404 : 200,
      })
      request.expect(answer.real!)
    }

    // why: after the lists, which would not show an archived subscription
    const [archived] = await invoke('admin-notify-archive', [
      {
        method: 'POST',
        path: '/api/admin/notify/archive',
        token: PREORDER_TOKEN,
        body: { ids: [{ id: subscriptionId, productSlug: WAITED_FOR }] },
      },
    ])
    expect(archived.status).toBe(200)

    const preview = openRepositories(fakeContext({ deployContext: DEPLOY_CONTEXT }))
    expect(
      await preview.reservations.get({ id: reservationId, productSlug: RESERVED }),
    ).toMatchObject({ status: 'confirmed' })
    expect(
      await preview.subscriptions.get({ id: subscriptionId, productSlug: WAITED_FOR }),
    ).toMatchObject({ isArchived: true })
  }, 300_000)
})
