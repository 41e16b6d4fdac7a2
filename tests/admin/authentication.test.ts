import { describe, expect, it } from 'vitest'
import * as notifyArchiveModule from '../../netlify/functions/admin-notify-archive.js'
import * as notifyArchivesListModule from '../../netlify/functions/admin-notify-archives-list.js'
import * as notifyDeleteModule from '../../netlify/functions/admin-notify-delete.js'
import * as notifyListModule from '../../netlify/functions/admin-notify-list.js'
import * as notifyStatusModule from '../../netlify/functions/admin-notify-status.js'
import * as notifyUnarchiveModule from '../../netlify/functions/admin-notify-unarchive.js'
import * as reservationsArchiveModule from '../../netlify/functions/admin-reservations-archive.js'
import * as reservationsArchivesListModule from '../../netlify/functions/admin-reservations-archives-list.js'
import * as reservationsDeleteModule from '../../netlify/functions/admin-reservations-delete.js'
import * as reservationsListModule from '../../netlify/functions/admin-reservations-list.js'
import * as reservationsStatusModule from '../../netlify/functions/admin-reservations-status.js'
import * as reservationsUnarchiveModule from '../../netlify/functions/admin-reservations-unarchive.js'
import { endpoint, isolatedScope, settleScopes, type EndpointUnderTest } from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { ADMIN_TOKEN, PREORDER_TOKEN, useApiTokens } from '../helpers/tokens.js'

/** Every endpoint with a body that would succeed (or fail validation) once authenticated. */
const cases: [string, EndpointUnderTest, 'admin' | 'preorder', unknown][] = [
  ['reservations list', endpoint(reservationsListModule, 'admin'), 'admin', {}],
  ['notify list', endpoint(notifyListModule, 'admin'), 'admin', {}],
  ['reservations status', endpoint(reservationsStatusModule, 'admin'), 'admin', {}],
  ['notify status', endpoint(notifyStatusModule, 'admin'), 'admin', {}],
  ['reservations archive', endpoint(reservationsArchiveModule, 'preorder'), 'preorder', {}],
  ['reservations unarchive', endpoint(reservationsUnarchiveModule, 'preorder'), 'preorder', {}],
  ['reservations delete', endpoint(reservationsDeleteModule, 'preorder'), 'preorder', {}],
  [
    'reservations archives list',
    endpoint(reservationsArchivesListModule, 'preorder'),
    'preorder',
    {},
  ],
  ['notify archive', endpoint(notifyArchiveModule, 'preorder'), 'preorder', {}],
  ['notify unarchive', endpoint(notifyUnarchiveModule, 'preorder'), 'preorder', {}],
  ['notify delete', endpoint(notifyDeleteModule, 'preorder'), 'preorder', {}],
  ['notify archives list', endpoint(notifyArchivesListModule, 'preorder'), 'preorder', {}],
]

const UNAUTHORIZED = { status: 401, body: { success: false, error: 'Unauthorized' } }

useBlobsServer({ beforeStop: settleScopes })
useApiTokens('eachTest')
useLogCapture()

describe.each(cases)('%s', (_name, target, group) => {
  const own = group === 'admin' ? ADMIN_TOKEN : PREORDER_TOKEN
  const other = group === 'admin' ? PREORDER_TOKEN : ADMIN_TOKEN

  it('401 without a token, with a wrong token, and with the other group’s token', async () => {
    const scope = isolatedScope()
    for (const token of [null, 'wrong', other, `${own}x`]) {
      expect(await scope.call(target, {}, { token })).toMatchObject(UNAUTHORIZED)
    }
    // why: authentication comes before validation (§5), so a broken body still answers 401
    expect(await scope.call(target, '{broken', { token: null })).toMatchObject(UNAUTHORIZED)
  })

  it('accepts its own group’s token', async () => {
    const answer = await isolatedScope().call(target, {}, { token: own })
    expect(answer.status).not.toBe(401)
    expect([200, 400]).toContain(answer.status)
  })

  it('D7: when its own variable is unset, the other variable’s token is accepted', async () => {
    if (group === 'admin') delete process.env.ADMIN_API_TOKEN
    else process.env.PREORDER_API_TOKEN = ''
    const scope = isolatedScope()
    expect((await scope.call(target, {}, { token: other })).status).not.toBe(401)
    expect(await scope.call(target, {}, { token: own })).toMatchObject(UNAUTHORIZED)
  })

  it('D7: when neither variable is set, every request is refused', async () => {
    delete process.env.ADMIN_API_TOKEN
    delete process.env.PREORDER_API_TOKEN
    const scope = isolatedScope()
    for (const token of [null, own, other, '']) {
      expect(await scope.call(target, {}, { token })).toMatchObject(UNAUTHORIZED)
    }
  })

  it('405 with Allow for GET', async () => {
    const answer = await isolatedScope().call(target, undefined, { method: 'GET' })
    expect(answer.status).toBe(405)
    expect(answer.headers.get('allow')).toBe('POST, OPTIONS')
  })
})
