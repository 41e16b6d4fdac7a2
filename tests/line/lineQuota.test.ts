import { describe, expect, it } from 'vitest'
import stockList from '../../netlify/functions/admin-stock-list.js'
import { stockListAnswer } from '../../src/build/api/responseSchemas.js'
import { loadConfig } from '../../src/lib/config.js'
import { createLogger } from '../../src/lib/log.js'
import { sendRestockWave } from '../../src/lib/restock/restockWave.js'
import { openServices } from '../../src/lib/services.js'
import { eventsOf } from '../helpers/logs.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN, setApiTokens } from '../helpers/tokens.js'
import { seedSubscription } from '../restock/restockTestKit.js'
import { PRODUCT, newLineUserId, useLineEnvironment } from './lineTestKit.js'

/**
 * The month's LINE quota: the stock list (what the dashboard's send form and stock screen read)
 * answers it with who of the waiting are LINE sign-ups, and an automatic wave never chooses more
 * LINE sign-ups than the quota has left: the others wait, and staff are told.
 */

const world = useLineEnvironment()

async function seed(channel: 'line' | 'email') {
  return seedSubscription(
    world.repositories(),
    channel === 'line'
      ? { productSlug: PRODUCT, email: '', channel: 'line', lineUserId: newLineUserId() }
      : { productSlug: PRODUCT },
  )
}

describe('the LINE quota', () => {
  it('is answered by the stock list with the LINE sign-ups among the waiting', async () => {
    world.standIn.quota = { limit: 500, usage: 120 }
    await seed('line')
    await seed('email')
    setApiTokens()
    const context = world.context()
    const answer = await readJson(
      await stockList(jsonRequest('/api/admin/stock/list', {}, { token: ADMIN_TOKEN }), context),
    )
    stockListAnswer.parse(answer.body)
    expect(answer.body.line).toEqual({ limit: 500, usage: 120, remaining: 380 })
    const row = answer.body.stock.find(
      (line: { productSlug: string }) => line.productSlug === PRODUCT,
    )
    expect(row).toMatchObject({ waiting: 2, lineWaiting: 1 })
  })

  it('is null in the stock list without LINE', async () => {
    delete process.env.LINE_LOGIN_CHANNEL_ID
    setApiTokens()
    const answer = await readJson(
      await stockList(
        jsonRequest('/api/admin/stock/list', {}, { token: ADMIN_TOKEN }),
        world.context(),
      ),
    )
    expect(answer.body.line).toBeNull()
  })

  it('caps a wave’s LINE sign-ups at what is left; the others wait and staff are told', async () => {
    world.standIn.quota = { limit: 10, usage: 9 }
    const firstLine = await seed('line')
    const secondLine = await seed('line')
    const firstEmail = await seed('email')
    const thirdLine = await seed('line')
    const secondEmail = await seed('email')
    // why: LINE pushes run with or without Resend; their links are signed with this secret
    process.env.UNSUBSCRIBE_SECRET = 'line-quota-unsubscribe-secret'
    const services = openServices(world.context(), loadConfig(), createLogger('test'))
    const outcome = await sendRestockWave(
      {
        notificationId: 'notif_line-quota-wave',
        productSlug: PRODUCT,
        emailTitle: '再入荷しました',
        emailBody: '入荷しました。',
        limit: 4,
        trigger: { kind: 'stock-wave', episode: 1, wave: 1, quantity: 4, perUnit: 1 },
      },
      services,
    )
    expect(outcome).toMatchObject({ state: 'sent', recipients: 3 })
    const stored = await world.repositories().subscriptions.listProduct(PRODUCT)
    const status = (id: string) => stored.records.find((record) => record.id === id)?.status
    // without Resend the e-mail sign-ups are recorded at once; the LINE one chosen is pushed
    // by the delivery the wave started
    expect([firstEmail, secondEmail].map(({ id }) => status(id))).toEqual(['notified', 'notified'])
    const job = await world.repositories().deliveries.getJob('notif_line-quota-wave')
    expect(job?.recipients.map(({ subscriptionId }) => subscriptionId)).toEqual([firstLine.id])
    expect([secondLine, thirdLine].map(({ id }) => status(id))).toEqual(['pending', 'pending'])
    expect(eventsOf(world.logs, 'stock.wave.line_quota_reached')).toMatchObject([
      { lineHeldBack: 2 },
    ])
  })
})
