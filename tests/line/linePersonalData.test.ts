import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import erasePerson from '../../netlify/functions/admin-people-erase.js'
import exportPerson from '../../netlify/functions/admin-people-export.js'
import { personErased, personExport } from '../../src/build/api/responseSchemas.js'
import { lineUserHash } from '../../src/lib/storage/lineContacts.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN, setApiTokens } from '../helpers/tokens.js'
import { PRODUCT, VARIANT_PRODUCT, useLineEnvironment } from './lineTestKit.js'

/**
 * Export and erase by LINE user id: everything a LINE sign-up (and a reservation made from its
 * hold) stored is answered, and after an
 * erase no blob of the store holds the LINE user id (every file of the Blobs server is read).
 */

const world = useLineEnvironment()

async function call(handler: typeof exportPerson, path: string, body: unknown) {
  setApiTokens()
  const context = world.context()
  const response = await handler(jsonRequest(path, body, { token: ADMIN_TOKEN }), context)
  await context.settled()
  return readJson(response)
}

/** Every file under `directory`, as text. */
async function everyBlob(directory: string): Promise<string[]> {
  const texts: string[] = []
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      texts.push(await readFile(join(entry.parentPath, entry.name), 'utf8'))
      texts.push(decodeURIComponent(entry.name))
    }
  }
  return texts
}

describe('personal data of a LINE sign-up', () => {
  it('exports the LINE sign-ups and their consents by LINE user id', async () => {
    const userId = world.standIn.nextLogin.userId
    await world.signUp({ productSlug: PRODUCT })
    await world.signUp({ productSlug: VARIANT_PRODUCT, variant: 'ai' })
    const answer = await call(exportPerson, '/api/admin/people/export', { lineUserId: userId })
    expect(answer.status).toBe(200)
    personExport.parse(answer.body)
    expect(answer.body.lineUserId).toBe(userId)
    expect(answer.body.subscriptions).toHaveLength(2)
    expect(answer.body.consents.map((consent: { kind: string }) => consent.kind)).toEqual([
      'restock-line',
      'restock-line',
    ])
    expect(answer.body.consents[0].wordingText).toContain('LINE')
  })

  it('refuses a LINE user id that is not one', async () => {
    const answer = await call(exportPerson, '/api/admin/people/export', { lineUserId: 'hanako' })
    expect(answer).toMatchObject({
      status: 400,
      body: { error: 'lineUserId must be a LINE user id (U and 32 hex digits)' },
    })
    const noEmail = await call(exportPerson, '/api/admin/people/export', {})
    expect(noEmail.body.error).toBe('email is required')
  })

  it('erases by LINE user id and leaves no LINE user id in any blob', async () => {
    const userId = world.standIn.nextLogin.userId
    await world.signUp({ productSlug: PRODUCT })
    await world.signUp({ productSlug: VARIANT_PRODUCT, variant: 'ai' })
    // a reservation made from one of the user's holds (channel LINE, no address)
    const reservation = {
      id: `res_${crypto.randomUUID()}`,
      name: 'LINE 花子',
      email: '',
      channel: 'line' as const,
      lineUserId: userId,
      productSlug: PRODUCT,
      status: 'pending',
      notes: '',
      createdAt: new Date().toISOString(),
      respondedAt: null,
      quantity: 1,
      source: 'restock-hold' as const,
    }
    await world.repositories().reservations.create(reservation, reservation)
    expect((await everyBlob(world.blobs.directory)).some((text) => text.includes(userId))).toBe(
      true,
    )

    const answer = await call(erasePerson, '/api/admin/people/erase', { lineUserId: userId })
    expect(answer.status).toBe(200)
    personErased.parse(answer.body)
    expect(answer.body.erased).toMatchObject({
      reservations: 1,
      subscriptions: 2,
      consents: 2,
      claims: 2,
    })

    const blobs = await everyBlob(world.blobs.directory)
    expect(blobs.filter((text) => text.includes(userId))).toEqual([])
    expect(blobs.filter((text) => text.includes(lineUserHash(userId)))).toEqual([])
    expect(JSON.stringify(world.logs)).not.toContain(userId)
  })
})
