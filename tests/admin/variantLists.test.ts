import { describe, expect, it } from 'vitest'
import * as listModule from '../../netlify/functions/admin-reservations-list.js'
import * as notifyListModule from '../../netlify/functions/admin-notify-list.js'
import * as archiveListModule from '../../netlify/functions/admin-reservations-archives-list.js'
import * as statsModule from '../../netlify/functions/admin-stats.js'
import { endpoint, isolatedScope, settleScopes } from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { useApiTokens } from '../helpers/tokens.js'

/**
 * Staff lists and statistics of records of a product with variants (mino-mug: 藍 ai, 白 shiro,
 * 飴 ame) beside a product without (chasen-takayama), through the real handlers on a real local
 * Blobs server.
 */

useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
useLogCapture()

const list = endpoint(listModule, 'admin')
const notifyList = endpoint(notifyListModule, 'admin')
const archiveList = endpoint(archiveListModule, 'preorder')
const stats = endpoint(statsModule, 'admin')

describe('lists and statistics per variant', () => {
  it('lists filter by variant and show it; records without variants carry none', async () => {
    const scope = isolatedScope()
    const ai = await scope.seedReservation({ productSlug: 'mino-mug', variant: 'ai' })
    const shiro = await scope.seedReservation({ productSlug: 'mino-mug', variant: 'shiro' })
    const plain = await scope.seedReservation({ productSlug: 'chasen-takayama' })

    const byVariant = await scope.call(list, { productSlug: 'mino-mug', variant: 'ai' })
    expect(byVariant.status).toBe(200)
    expect(byVariant.body.reservations.map((r: { id: string }) => r.id)).toEqual([ai.id])
    expect(byVariant.body.reservations[0].variant).toBe('ai')

    const product = await scope.call(list, { productSlug: 'mino-mug' })
    expect(product.body.reservations.map((r: { id: string }) => r.id).sort()).toEqual(
      [ai.id, shiro.id].sort(),
    )
    const paged = await scope.call(list, {
      productSlug: 'mino-mug',
      variant: 'shiro',
      pageSize: 10,
    })
    expect(paged.body.reservations.map((r: { id: string }) => r.id)).toEqual([shiro.id])
    expect(paged.body.total).toBe(1)

    const every = await scope.call(list, {})
    const plainRow = every.body.reservations.find((r: { id: string }) => r.id === plain.id)
    expect(Object.keys(plainRow)).not.toContain('variant')

    const alone = await scope.call(list, { variant: 'ai' })
    expect(alone.status).toBe(400)
    expect(alone.body).toEqual({ success: false, error: 'variant must be sent with productSlug' })
    const archived = await scope.call(archiveList, { variant: 'ai' })
    expect(archived.status).toBe(400)
    expect(archived.body.error).toBe('variant must be sent with productSlug')
  })

  it('statistics keep the §2.4 shape and add byVariant beside byProduct', async () => {
    const scope = isolatedScope()
    await scope.seedSubscription({ productSlug: 'mino-mug', variant: 'ai' })
    await scope.seedSubscription({ productSlug: 'mino-mug', variant: 'ai', status: 'notified' })
    await scope.seedSubscription({ productSlug: 'mino-mug', variant: 'ame' })
    await scope.seedSubscription({ productSlug: 'chasen-takayama' })
    await scope.seedReservation({ productSlug: 'chasen-takayama', status: 'cancelled' })
    await scope.seedReservation({ productSlug: 'chasen-takayama' })

    const answer = await scope.call(stats, {})
    expect(answer.status).toBe(200)
    expect(answer.body.stats.notify).toMatchObject({
      total: 4,
      byProduct: { 'mino-mug': 3, 'chasen-takayama': 1 },
      byVariant: { 'mino-mug': { ai: 2, ame: 1 } },
    })
    // statuses in their documented order, products in slug order, whichever was counted first
    expect(Object.keys(answer.body.stats.reservations.byStatus)).toEqual(['pending', 'cancelled'])
    expect(Object.keys(answer.body.stats.notify.byProduct)).toEqual(['chasen-takayama', 'mino-mug'])
    // reservations of products without variants: no byVariant at all
    expect(Object.keys(answer.body.stats.reservations)).not.toContain('byVariant')

    const listed = await scope.call(notifyList, { productSlug: 'mino-mug', variant: 'ame' })
    expect(listed.body.subscriptions).toHaveLength(1)
  })
})
