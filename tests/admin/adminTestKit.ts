import type { Context } from '@netlify/functions'
import { mapWithConcurrency } from '../../src/lib/concurrency.js'
import { openStore, RECORDS_STORE } from '../../src/lib/storage/blobStore.js'
import { rebuildIndexes } from '../../src/lib/storage/listing/indexMaintenance.js'
import {
  openRepositories,
  reservationRepository,
  type Repositories,
} from '../../src/lib/storage/repositories.js'
import type { NotifySubscription, Reservation } from '../../src/lib/storage/records.js'
import { fakeContext, type TestContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN, PREORDER_TOKEN } from '../helpers/tokens.js'

type Handler = (req: Request, context: Context) => Promise<Response>

/** An endpoint module: its handler, its path and the token its group accepts. */
export interface EndpointUnderTest {
  handler: Handler
  path: string
  token: string
}

export function endpoint(
  module: { default: Handler; config: { path?: string | string[] } },
  group: 'admin' | 'preorder',
): EndpointUnderTest {
  return {
    handler: module.default,
    path: String(module.config.path),
    token: group === 'admin' ? ADMIN_TOKEN : PREORDER_TOKEN,
  }
}

let scopes = 0
const contexts: TestContext[] = []

/**
 * Waits for the background work of every request and repository made so far: the admin files'
 * `useBlobsServer({ beforeStop: settleScopes })`.
 */
export async function settleScopes(): Promise<void> {
  await Promise.all(contexts.map((context) => context.settled()))
}

/**
 * A store of its own (through its own deploy context, D12), so that tests in one file never see
 * each other's records, plus helpers to seed records and call endpoints against it.
 */
export function isolatedScope() {
  const deployContext = `admin-test-${process.pid}-${++scopes}`
  const context = () => {
    const created = fakeContext({ deployContext })
    contexts.push(created)
    return created
  }
  const repositories: Repositories = openRepositories(context())
  /** The scope's records store itself, to write what the service never would (damaged blobs). */
  const store = openStore(RECORDS_STORE, context())

  async function call(
    target: EndpointUnderTest,
    body?: unknown,
    options: { token?: string | null; method?: string } = {},
  ) {
    const token = options.token === undefined ? target.token : options.token
    const request = jsonRequest(target.path, body, { token, method: options.method })
    const ctx = context()
    const response = await target.handler(request, ctx)
    await ctx.settled()
    return readJson(response)
  }

  async function seedReservation(overrides: Partial<Reservation> = {}): Promise<Reservation> {
    const record = reservation(overrides)
    await repositories.reservations.create(record, record)
    return record
  }

  async function seedSubscription(
    overrides: Partial<NotifySubscription> = {},
  ): Promise<NotifySubscription> {
    const record = subscription(overrides)
    await repositories.subscriptions.create(record, record)
    return record
  }

  return { repositories, store, context, call, seedReservation, seedSubscription }
}

let ids = 0

export function reservation(overrides: Partial<Reservation> = {}): Reservation {
  ids += 1
  return {
    id: `res_test-${ids}`,
    name: '山田 太郎',
    email: `taro${ids}@example.com`,
    productSlug: 'blue-mug',
    status: 'pending',
    notes: '',
    createdAt: `2026-01-01T00:00:${String(ids % 60).padStart(2, '0')}.000Z`,
    respondedAt: null,
    ...overrides,
  }
}

export function subscription(overrides: Partial<NotifySubscription> = {}): NotifySubscription {
  ids += 1
  return {
    id: `ntf_${1700000000000 + ids}-test`,
    email: `hanako${ids}@example.com`,
    productSlug: 'blue-mug',
    status: 'pending',
    createdAt: `2026-01-01T00:00:${String(ids % 60).padStart(2, '0')}.000Z`,
    notifiedAt: null,
    ...overrides,
  }
}

/** An ISO timestamp `minutes` after a fixed base, for explicit ordering. */
export function at(minutes: number): string {
  return new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString()
}

type Scope = ReturnType<typeof isolatedScope>

/**
 * Writes `records` as an older shop holds them: by a writer (named `name`) dated back a day, so
 * that every delta has settled and a fold or the background rebuild takes it. Answers the
 * writer, for more writes dated the same way.
 */
export async function writeSettledReservations(scope: Scope, records: Reservation[], name: string) {
  const writer = reservationRepository(scope.store, {
    scope: name,
    now: () => Date.now() - 86_400_000,
  })
  await mapWithConcurrency(records, 25, (record) => writer.create(record, record))
  return writer
}

/** Builds every index, time view and counter of the scope as the background rebuild does; its outcome. */
export function rebuildScopeIndexes(scope: Scope, owner: string) {
  const { store, indexes } = scope.repositories
  return rebuildIndexes(store, indexes, { now: Date.now, deadline: Infinity, owner })
}
