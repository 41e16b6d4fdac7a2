import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import type { Reservation } from '../../src/lib/storage/records.js'
import { manyReservations, seedDevServerReservations } from '../helpers/seedDevServer.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

const PRODUCT = 'mino-yaki-mug'
const COUNT = 10_000
let server: RunningDevServer
let seeded: Reservation[]

beforeAll(async () => {
  server = await startDevServer({ ADMIN_API_TOKEN: ADMIN_TOKEN })
  seeded = manyReservations(COUNT, PRODUCT)
  await seedDevServerReservations(server.root, seeded)
}, 300_000)
afterAll(() => server?.stop())

describe('a list of 10,000 reservations over `npm start`', () => {
  async function list(body: object): Promise<{ status: number; body: any }> {
    const response = await fetch(`${server.url}/api/admin-reservations-list`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify(body),
    })
    const text = await response.text()
    try {
      return { status: response.status, body: JSON.parse(text) }
    } catch {
      throw new Error(`${response.status} ${text}\n${server.output().slice(-4000)}`)
    }
  }

  it(
    'pages through all of them, 500 a page, each once, newest first',
    { timeout: 300_000 },
    async () => {
      const ids: string[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const page: { status: number; body: any } = await list({
          pageSize: 500,
          ...(cursor ? { cursor } : {}),
        })
        expect(page.status).toBe(200)
        expect(page.body.total).toBe(COUNT)
        ids.push(...page.body.reservations.map((record: Reservation) => record.id))
        cursor = page.body.nextCursor
        pages += 1
      } while (cursor && pages <= COUNT / 500)
      expect(pages).toBe(COUNT / 500)
      expect(ids).toEqual(seeded.map((record) => record.id).reverse())
    },
  )

  it(
    'finds one by name in katakana, and answers the whole list streamed',
    { timeout: 300_000 },
    async () => {
      const found = await list({ q: 'ヤマダ 9995' })
      expect(found.body.reservations.map((record: Reservation) => record.name)).toEqual([
        'やまだ 9995',
      ])
      const whole = await list({ productSlug: PRODUCT })
      expect(whole.status).toBe(200)
      expect(whole.body.reservations).toHaveLength(COUNT)
      expect(whole.body.reservations[0]).toEqual(seeded.at(-1))
    },
  )
})
