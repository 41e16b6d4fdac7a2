import { beforeEach, describe, expect, it } from 'vitest'
import * as auditListModule from '../../netlify/functions/admin-audit-list.js'
import * as archiveModule from '../../netlify/functions/admin-reservations-archive.js'
import * as archivesListModule from '../../netlify/functions/admin-reservations-archives-list.js'
import * as deleteModule from '../../netlify/functions/admin-reservations-delete.js'
import * as listModule from '../../netlify/functions/admin-reservations-list.js'
import * as unarchiveModule from '../../netlify/functions/admin-reservations-unarchive.js'
import { loadConfig } from '../../src/lib/config.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { ADMIN_TOKEN, PREORDER_TOKEN } from '../helpers/tokens.js'
import { endpoint, isolatedScope, settleScopes, type EndpointUnderTest } from './adminTestKit.js'

/**
 * A person is one name with one token and the groups their job needs: `admin+preorder` grants
 * both, `admin` and `preorder` alone keep their meaning, and every change is audited under the
 * name of the token that made it. The dashboard learns what a token may do from
 * `POST /api/admin/whoami`.
 */

const SATO = 'sato-named-staff-token-0123456789'
const SUZUKI = 'suzuki-named-staff-token-0123456789'
const TANAKA = 'tanaka-named-staff-token-0123456789'

useBlobsServer({ beforeStop: settleScopes })
useLogCapture()
beforeEach(() => {
  process.env.ADMIN_API_TOKEN = ADMIN_TOKEN
  delete process.env.PREORDER_API_TOKEN
  process.env.STAFF_TOKENS = `sato:${SATO}:admin+preorder,suzuki:${SUZUKI}:preorder,tanaka:${TANAKA}:admin`
})

const archive = endpoint(archiveModule, 'preorder')
const archives = endpoint(archivesListModule, 'preorder')
const unarchive = endpoint(unarchiveModule, 'preorder')
const remove = endpoint(deleteModule, 'preorder')
const list = endpoint(listModule, 'admin')
const audit = endpoint(auditListModule, 'admin')

describe('STAFF_TOKENS groups', () => {
  it('reads admin+preorder as both groups; admin and preorder alone as one', () => {
    const config = loadConfig({
      STAFF_TOKENS: `sato:${SATO}:admin+preorder,suzuki:${SUZUKI}:preorder,tanaka:${TANAKA}:admin,x:t:owner`,
    })
    expect(config.staffTokens.map(({ name, groups }) => ({ name, groups }))).toEqual([
      { name: 'sato', groups: ['admin', 'preorder'] },
      { name: 'suzuki', groups: ['preorder'] },
      { name: 'tanaka', groups: ['admin'] },
    ])
    expect(config.malformedStaffTokens).toEqual([
      { position: 4, reason: 'the group must be admin, preorder or admin+preorder' },
    ])
  })

  it('sato (admin+preorder) lists, archives, lists the archive, unarchives and deletes; each change is audited as sato', async () => {
    const scope = isolatedScope()
    const record = await scope.seedReservation()
    const ids = { ids: [{ id: record.id, productSlug: record.productSlug }] }
    const as = (target: EndpointUnderTest, body: unknown) =>
      scope.call(target, body, { token: SATO })

    expect((await as(list, {})).status).toBe(200)
    expect((await as(archive, ids)).body.archivedIds).toEqual([record.id])
    expect((await as(archives, {})).body.reservations.map((r: { id: string }) => r.id)).toEqual([
      record.id,
    ])
    expect((await as(unarchive, ids)).body.unarchivedIds).toEqual([record.id])
    expect((await as(remove, ids)).body.deletedIds).toEqual([record.id])

    const trail = await scope.call(audit, { recordId: record.id })
    expect(
      trail.body.entries.map((entry: { actor: string; action: string }) => [
        entry.action,
        entry.actor,
      ]),
    ).toEqual([
      ['delete', 'sato'],
      ['unarchive', 'sato'],
      ['archive', 'sato'],
    ])
  })

  it('keeps one group alone to its own endpoints: tanaka (admin) cannot archive, suzuki (preorder) cannot list', async () => {
    const scope = isolatedScope()
    const record = await scope.seedReservation()
    const ids = { ids: [{ id: record.id, productSlug: record.productSlug }] }
    expect((await scope.call(archive, ids, { token: TANAKA })).status).toBe(401)
    expect((await scope.call(list, {}, { token: SUZUKI })).status).toBe(401)
    expect((await scope.call(archive, ids, { token: SUZUKI })).status).toBe(200)
    const trail = await scope.call(audit, { recordId: record.id })
    expect(trail.body.entries.map((entry: { actor: string }) => entry.actor)).toEqual(['suzuki'])
  })
})

describe('POST /api/admin/whoami', () => {
  async function whoami(token: string | null) {
    const module = await import('../../netlify/functions/admin-whoami.js')
    const scope = isolatedScope()
    return scope.call(
      { handler: module.default, path: '/api/admin/whoami', token: '' },
      {},
      {
        token,
      },
    )
  }

  it('answers the name and the groups of the token it was sent with', async () => {
    expect((await whoami(SATO)).body).toEqual({
      success: true,
      name: 'sato',
      groups: ['admin', 'preorder'],
    })
    expect((await whoami(SUZUKI)).body).toEqual({
      success: true,
      name: 'suzuki',
      groups: ['preorder'],
    })
    expect((await whoami(TANAKA)).body).toEqual({
      success: true,
      name: 'tanaka',
      groups: ['admin'],
    })
    // D7: with PREORDER_API_TOKEN unset, the shared admin token is accepted by both groups
    expect((await whoami(ADMIN_TOKEN)).body).toEqual({
      success: true,
      name: 'admin',
      groups: ['admin', 'preorder'],
    })
    process.env.PREORDER_API_TOKEN = PREORDER_TOKEN
    expect((await whoami(ADMIN_TOKEN)).body.groups).toEqual(['admin'])
    expect((await whoami(PREORDER_TOKEN)).body).toEqual({
      success: true,
      name: 'preorder',
      groups: ['preorder'],
    })
  })

  it('answers 401 without a token or with a wrong one, and names nobody', async () => {
    for (const token of [null, `${SATO}x`]) {
      const answer = await whoami(token)
      expect(answer.status).toBe(401)
      expect(answer.body).toEqual({ success: false, error: 'Unauthorized' })
    }
  })
})
