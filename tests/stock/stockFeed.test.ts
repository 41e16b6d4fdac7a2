import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import reconcile from '../../netlify/functions/stock-reconcile.js'
import webhook from '../../netlify/functions/stock-webhook.js'
import { parseCsvRows, stockTableFromCsv } from '../../src/lib/stock/stockTable.js'
import {
  OTHER_PRODUCT,
  PRODUCT,
  PRODUCT_SKU,
  signatureHeader,
  useStockEnvironment,
} from './stockTestKit.js'

/** The sweep's counts when nothing is due. */
const NOTHING_DUE = { wavesSent: 0, scheduledSent: 0, quietHoursWaiting: 0, left: 0 }
describe('stock tables (feed and dashboard import)', () => {
  it('reads RFC 4180 CSV with a BOM, CRLF, quotes and blank lines', () => {
    expect(parseCsvRows('\uFEFFsku,quantity\r\n"SKU-1001",3\r\n\r\n"a ""b""",4\n')).toEqual([
      ['sku', 'quantity'],
      ['SKU-1001', '3'],
      ['a "b"', '4'],
    ])
  })

  it('finds the columns by name in any order, and names the rows it could not use', () => {
    const table = stockTableFromCsv('在庫数,商品コード,name\n3,SKU-1001,x\nabc,SKU-1002,y\n2,,z\n')
    expect(table.lines).toEqual([{ sku: 'SKU-1001', quantity: 3 }])
    expect(table.rejectedRows).toEqual([2, 3])
    expect(() => stockTableFromCsv('name,price\nx,1\n')).toThrow(/sku or productSlug, and quantity/)
  })
})

describe('the scheduled reconciliation (stock-reconcile)', () => {
  const world = useStockEnvironment()
  let served: { type: string; body: string } = { type: 'application/json', body: '[]' }
  // why: the inventory system's feed, served as it is (the recording server answers JSON only)
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': served.type }).end(served.body)
  })
  const feed = { url: '' }

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    feed.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  const run = () =>
    world.call(reconcile, '/.netlify/functions/stock-reconcile', { next_run: 'x' }, null)

  it('catches a change no webhook announced (JSON feed), and writes only what differs', async () => {
    const body = JSON.stringify({ id: 'evt_feed', items: [{ sku: PRODUCT_SKU, quantity: 5 }] })
    await world.webhook(webhook, body, signatureHeader(body))
    process.env.STOCK_FEED_URL = `${feed.url}/stock.json`
    served = {
      type: 'application/json',
      body: JSON.stringify([
        { sku: PRODUCT_SKU, quantity: 2 },
        { productSlug: OTHER_PRODUCT, quantity: 0 },
        { sku: 'UNKNOWN', quantity: 1 },
      ]),
    }
    const answer = await run()
    expect(answer.body).toEqual({ success: true, feed: 'read', ...NOTHING_DUE, changed: 2 })
    const { stock } = world.repositories()
    expect(await stock.get({ productSlug: PRODUCT })).toMatchObject({ quantity: 2, source: 'feed' })
    expect(await stock.get({ productSlug: OTHER_PRODUCT })).toMatchObject({ quantity: 0 })

    const logged = world.logs.find((line) => line.event === 'stock.feed.reconciled')
    expect(logged).toMatchObject({
      changed: 2,
      changes: [
        { productSlug: PRODUCT, from: 5, to: 2 },
        { productSlug: OTHER_PRODUCT, from: null, to: 0 },
      ],
      unknownProducts: ['UNKNOWN'],
    })
    world.blobs.operations.length = 0
    expect((await run()).body).toEqual({ success: true, feed: 'read', ...NOTHING_DUE, changed: 0 })
    // why: a background fold may write an index base; no stock record is written
    const writes = world.blobs.operations.filter((op) => op.type === 'set')
    expect(writes.filter((op) => !/\/index(%2F|\/)/.test(op.url))).toEqual([])
  })

  it('reads a CSV feed with a header row', async () => {
    process.env.STOCK_FEED_URL = `${feed.url}/stock.csv`
    served = { type: 'text/csv', body: `sku,quantity\r\n${PRODUCT_SKU},7\r\n` }
    expect((await run()).body).toEqual({ success: true, feed: 'read', ...NOTHING_DUE, changed: 1 })
    expect(await world.repositories().stock.get({ productSlug: PRODUCT })).toMatchObject({
      quantity: 7,
    })
  })

  it('names variants by their sku or by a variant column beside the slug (CSV feed)', async () => {
    process.env.STOCK_FEED_URL = `${feed.url}/stock.csv`
    served = {
      type: 'text/csv',
      body: 'sku,productSlug,variant,quantity\r\nSKU-2001,,,3\r\n,mino-mug,shiro,1\r\n',
    }
    expect((await run()).body).toMatchObject({ success: true, feed: 'read', changed: 2 })
    const stock = world.repositories().stock
    expect(await stock.get({ productSlug: 'mino-mug', variant: 'ai' })).toMatchObject({
      quantity: 3,
    })
    expect(await stock.get({ productSlug: 'mino-mug', variant: 'shiro' })).toMatchObject({
      quantity: 1,
    })
    expect(await stock.get({ productSlug: 'mino-mug', variant: 'ame' })).toBeNull()
  })

  it('changes nothing and logs when the feed fails or is unreadable; nothing to do without a URL', async () => {
    expect((await run()).body).toEqual({
      success: true,
      feed: 'not-configured',
      ...NOTHING_DUE,
      changed: 0,
    })
    process.env.STOCK_FEED_URL = `${feed.url}/stock.csv`
    served = { type: 'text/csv', body: 'name,price\nx,1\n' }
    expect((await run()).body).toEqual({
      success: true,
      feed: 'failed',
      ...NOTHING_DUE,
      changed: 0,
    })
    expect(await world.repositories().stock.get({ productSlug: PRODUCT })).toBeNull()
  })
})
