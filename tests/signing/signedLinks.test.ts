import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  EXPORT_TICKET_TTL_MS,
  issueExportTicket,
  requireExportTicket,
  runTicketedExport,
} from '../../src/lib/admin/listExports.js'
import {
  createConfirmationToken,
  UNCONFIRMED_TTL_MS,
  verifyConfirmationToken,
} from '../../src/lib/compliance/confirmationToken.js'
import {
  createUnsubscribeToken,
  verifyUnsubscribeToken,
} from '../../src/lib/compliance/unsubscribeToken.js'
import { loadConfig } from '../../src/lib/config.js'
import { CLICK_LINK_TTL_MS, checkClick, clickUrl } from '../../src/lib/demand/clickLink.js'
import { followClick } from '../../src/lib/demand/followClick.js'
import { LinkExpiredError, NotFoundError, UnauthorizedError } from '../../src/lib/errors.js'
import {
  issueRebuildTicket,
  REBUILD_TICKET_TTL_MS,
  requireRebuildTicket,
} from '../../src/lib/indexing/rebuildTicket.js'
import { createLogger } from '../../src/lib/log.js'
import {
  createManageToken,
  MANAGE_LINK_LIFETIME_MS,
  verifyManageToken,
} from '../../src/lib/reservations/manageLink.js'
import { answerManage } from '../../src/lib/reservations/manageReservation.js'
import {
  DELIVERY_TICKET_TTL_MS,
  issueDeliveryTicket,
  requireDeliveryTicket,
  runTicketedDelivery,
} from '../../src/lib/restock/deliveryTicket.js'
import { openServices } from '../../src/lib/services.js'
import { ExportJobStore } from '../../src/lib/storage/exportJobStore.js'
import type { NotifySubscription, Reservation } from '../../src/lib/storage/records.js'
import { answerConfirm } from '../../src/lib/subscriptions/confirmSignup.js'
import { answerUnsubscribe } from '../../src/lib/subscriptions/unsubscribeRequest.js'
import {
  createKeepToken,
  KEEP_ANSWER_MS,
  verifyKeepToken,
} from '../../src/lib/compliance/keepToken.js'
import { PURPOSES as SIGNING } from '../../src/lib/signing/purposes.js'
import { signatureFor } from '../../src/lib/signing/signedToken.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'

/**
 * The one signing module (src/lib/signing/) as each purpose uses it: a link already e-mailed in
 * an older format still works; and for every purpose a token signed with another secret or for
 * another purpose, one whose payload or signature was altered, and one past its expiry are
 * refused, while a replay is refused where the purpose is single-use and changes nothing where
 * acting twice is harmless. Time is always passed in.
 */

interface Older {
  madeAt: number
  site: string
  manage: { secret: string; ref: { id: string; productSlug: string }; url: string }
  confirm: {
    secret: string
    ref: { id: string; productSlug: string }
    expiresAt: number
    url: string
  }
  unsubscribe: { secret: string; ref: { id: string; productSlug: string }; url: string }
  click: {
    secret: string
    link: { noticeId: string; subscriptionId: string; productSlug: string }
    url: string
  }
  deliveryTicket: { secret: string; notificationId: string; ticket: string }
  exportTicket: { adminApiToken: string; exportId: string; ticket: string }
  rebuildTicket: { secret: string; ticket: string }
}

const older = JSON.parse(
  readFileSync(new URL('./olderLinkFormats.json', import.meta.url), 'utf8'),
) as Older

const UNSUBSCRIBE_SECRET = older.unsubscribe.secret
const LINK_SECRET = older.manage.secret
const T0 = older.madeAt
const MINUTE = 60_000
const log = createLogger('signing-test')

useBlobsServer()
const saved = { ...process.env }
beforeEach(() => {
  process.env.UNSUBSCRIBE_SECRET = UNSUBSCRIBE_SECRET
  process.env.RESERVATION_LINK_SECRET = LINK_SECRET
  process.env.SITE_URL = older.site
})
afterEach(() => {
  process.env = { ...saved }
})

let worlds = 0
/** The services of one request in a fresh deploy context, on the clock `at`. */
function servicesAt(at: number, deployContext = `signing-${process.pid}-${++worlds}`) {
  const context = fakeContext({ deployContext })
  return openServices(context, loadConfig(process.env), log, { now: () => at })
}

const tokenOf = (url: string, name = 'token') => new URL(url).searchParams.get(name)!

const post = (path: string, token: string, accept = 'application/json') =>
  new Request(`${older.site}${path}?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { accept },
  })

function reservation(ref: { id: string; productSlug: string }): Reservation {
  return {
    ...ref,
    name: '署名 花子',
    email: 'signing@example.com',
    status: 'pending',
    notes: '',
    createdAt: new Date(T0 - MINUTE).toISOString(),
    respondedAt: null,
    quantity: 1,
  }
}

function subscription(
  ref: { id: string; productSlug: string },
  confirmedAt: string | null = null,
): NotifySubscription {
  return {
    ...ref,
    email: 'signing@example.com',
    status: 'pending',
    createdAt: new Date(T0).toISOString(),
    notifiedAt: null,
    consentedAt: new Date(T0).toISOString(),
    confirmedAt,
  }
}

describe('links already e-mailed in an older format keep working', () => {
  it('a manage link shows the reservation and cancels it once, until its expiry', async () => {
    const services = servicesAt(T0 + MINUTE)
    const { reservations } = services.repositories
    const record = reservation(older.manage.ref)
    await reservations.create(record, record)
    const token = tokenOf(older.manage.url)
    const check = verifyManageToken(token, LINK_SECRET, T0 + MINUTE)
    expect(check).toMatchObject({ ok: true, link: { ...older.manage.ref } })
    expect(verifyManageToken(token, LINK_SECRET, T0 + MANAGE_LINK_LIFETIME_MS)).toEqual({
      ok: false,
      reason: 'expired',
    })
    const get = new Request(`${older.site}/reservation/manage?token=${token}`)
    expect((await answerManage({ req: get, form: undefined, services })).status).toBe(200)
    const cancelled = await answerManage({
      req: post('/reservation/manage', token),
      form: {},
      services,
    })
    expect(cancelled.status).toBe(200)
    expect((await reservations.get(record))?.status).toBe('cancelled')
  })

  it('a confirmation link confirms the sign-up until its expiry', async () => {
    const services = servicesAt(T0 + MINUTE)
    const { subscriptions } = services.repositories
    const record = subscription(older.confirm.ref)
    await subscriptions.create(record, record)
    const token = tokenOf(older.confirm.url)
    const late = servicesAt(older.confirm.expiresAt)
    await expect(
      answerConfirm({ req: post('/api/notify-confirm', token), form: {}, services: late }),
    ).rejects.toBeInstanceOf(LinkExpiredError)
    expect(
      await answerConfirm({ req: post('/api/notify-confirm', token), form: {}, services }),
    ).toEqual({ alreadyConfirmed: false })
    expect((await subscriptions.get(record))?.confirmedAt).toBe(new Date(T0 + MINUTE).toISOString())
  })

  it('an unsubscribe link unsubscribes, however late', async () => {
    const services = servicesAt(T0 + 10 * 365 * 24 * 60 * MINUTE)
    const { subscriptions } = services.repositories
    const record = subscription(older.unsubscribe.ref, new Date(T0).toISOString())
    await subscriptions.create(record, record)
    const token = tokenOf(older.unsubscribe.url)
    expect(verifyUnsubscribeToken(token, UNSUBSCRIBE_SECRET)).toEqual({
      ok: true,
      ref: older.unsubscribe.ref,
    })
    const answer = await answerUnsubscribe({
      req: post('/api/notify-unsubscribe', token),
      form: {},
      services,
    })
    expect(answer).toEqual({})
    expect((await subscriptions.get(record))?.status).toBe('unsubscribed')
  })

  it('a click link leads to the product and counts once, until its expiry', async () => {
    const deployContext = `signing-click-${process.pid}`
    const follow = async (at: number) => {
      const response = await followClick(
        new Request(older.click.url.replace(older.site, 'http://localhost:8888')),
        servicesAt(at, deployContext),
      )
      return { status: response.status, location: response.headers.get('location') }
    }
    const productPage = `${older.site}/products/${older.click.link.productSlug}`
    expect(await follow(T0 + CLICK_LINK_TTL_MS)).toEqual({ status: 302, location: productPage })
    expect(await follow(T0 + MINUTE)).toEqual({ status: 302, location: productPage })
    expect(await follow(T0 + 2 * MINUTE)).toEqual({ status: 302, location: productPage })
    const clicks = servicesAt(T0, deployContext).repositories.demand
    expect(await clicks.countClicks(older.click.link.noticeId)).toBe(1)
  })

  it('an older link altered is refused as before: a changed signature, a payload re-encoded, a click re-aimed', () => {
    const manage = tokenOf(older.manage.url)
    expect(verifyManageToken(withAlteredSignature(manage), LINK_SECRET, T0)).toEqual({
      ok: false,
      reason: 'bad-signature',
    })
    const [, signature] = tokenOf(older.unsubscribe.url).split('.')
    const { id, productSlug } = older.unsubscribe.ref
    for (const json of [
      JSON.stringify({ productSlug, id }),
      JSON.stringify({ id, productSlug, admin: true }),
    ]) {
      const payload = Buffer.from(json).toString('base64url')
      expect(verifyUnsubscribeToken(`${payload}.${signature}`, UNSUBSCRIBE_SECRET)).toEqual({
        ok: false,
        reason: 'malformed',
      })
    }
    const confirm = tokenOf(older.confirm.url)
    expect(verifyConfirmationToken(withAlteredSignature(confirm), UNSUBSCRIBE_SECRET, T0)).toEqual({
      ok: false,
      reason: 'bad-signature',
    })
    const click = new URL(older.click.url).searchParams
    click.set('n', 'notif_other')
    expect(checkClick(click, UNSUBSCRIBE_SECRET, T0)).toEqual({
      counts: false,
      reason: 'bad-signature',
    })
  })

  it('the delivery and export tickets a run in flight carries are the same format', () => {
    const { deliveryTicket, exportTicket } = older
    expect(
      requireDeliveryTicket(
        deliveryTicket.ticket,
        { unsubscribeSecret: deliveryTicket.secret },
        log,
        T0 + MINUTE,
      ),
    ).toMatchObject({ notificationId: deliveryTicket.notificationId })
    const config = {
      adminApiToken: exportTicket.adminApiToken,
      preorderApiToken: null,
      staffTokens: [],
    }
    expect(requireExportTicket(exportTicket.ticket, config, log, T0 + MINUTE)).toMatchObject({
      subject: exportTicket.exportId,
    })
  })

  it('a rebuild ticket of the older form is refused: the next scheduled verifier starts the rebuild again', () => {
    const config = { unsubscribeSecret: older.rebuildTicket.secret }
    expect(() =>
      requireRebuildTicket(older.rebuildTicket.ticket, config, log, T0 + MINUTE),
    ).toThrow(UnauthorizedError)
  })
})

/** One purpose as the service uses it: make a token at `now`, check one at `now`. */
interface Purpose {
  name: string
  make(secret: string, now: number): string
  check(token: string, secret: string, now: number): { ok: boolean; reason?: string }
  /** How long a token acts; null: for ever. */
  lifetimeMs: number | null
  /** The token with a signed field changed, its signature kept. Default: the payload re-encoded. */
  alterField?: (token: string) => string
  /** The same claims signed for another purpose. Default: the payload signed for another purpose. */
  foreign?: (secret: string, now: number) => string
}

const RECORD = { id: 'ntf_1795143600000-0123456789', productSlug: 'kalita-wave-server' }
const outcome = (check: { ok: boolean; reason?: string }) =>
  check.ok ? { ok: true } : { ok: false, reason: check.reason }
const thrown = (run: () => unknown) => {
  try {
    run()
    return { ok: true }
  } catch (error) {
    return { ok: false, reason: error instanceof UnauthorizedError ? 'refused' : String(error) }
  }
}
const exportConfig = (secret: string) => ({
  adminApiToken: secret,
  preorderApiToken: null,
  staffTokens: [],
})

/** A click link's query, its token: n, r, u, e and sig. */
const clickQuery = (secret: string, now: number) =>
  new URL(
    clickUrl(
      older.site,
      { noticeId: 'notif_a', subscriptionId: RECORD.id, productSlug: RECORD.productSlug },
      secret,
      now,
    ),
  ).search.slice(1)

const PURPOSES: Purpose[] = [
  {
    name: 'delivery ticket',
    make: (secret, now) => issueDeliveryTicket('notif_a', secret, now),
    check: (token, secret, now) =>
      thrown(() => requireDeliveryTicket(token, { unsubscribeSecret: secret }, log, now)),
    lifetimeMs: DELIVERY_TICKET_TTL_MS,
  },
  {
    name: 'export ticket',
    make: (secret, now) => issueExportTicket('exp_a', exportConfig(secret), now),
    check: (token, secret, now) =>
      thrown(() => requireExportTicket(token, exportConfig(secret), log, now)),
    lifetimeMs: EXPORT_TICKET_TTL_MS,
  },
  {
    name: 'rebuild ticket',
    make: (secret, now) => issueRebuildTicket(secret, now),
    check: (token, secret, now) =>
      thrown(() => requireRebuildTicket(token, { unsubscribeSecret: secret }, log, now)),
    lifetimeMs: REBUILD_TICKET_TTL_MS,
  },
  {
    name: 'manage link',
    make: (secret, now) => createManageToken(RECORD, secret, now),
    check: (token, secret, now) => outcome(verifyManageToken(token, secret, now)),
    lifetimeMs: MANAGE_LINK_LIFETIME_MS,
  },
  {
    name: 'confirmation link',
    make: (secret, now) => createConfirmationToken(RECORD, now + UNCONFIRMED_TTL_MS, secret),
    check: (token, secret, now) => outcome(verifyConfirmationToken(token, secret, now)),
    lifetimeMs: UNCONFIRMED_TTL_MS,
  },
  {
    name: 'keep link',
    make: (secret, now) => createKeepToken(RECORD, new Date(now).toISOString(), secret),
    check: (token, secret, now) => outcome(verifyKeepToken(token, secret, now)),
    lifetimeMs: KEEP_ANSWER_MS,
  },
  {
    name: 'unsubscribe link',
    make: (secret) => createUnsubscribeToken(RECORD, secret),
    check: (token, secret) => outcome(verifyUnsubscribeToken(token, secret)),
    lifetimeMs: null,
  },
  {
    // why: its token is the link's query (n, r, u, e, sig), the shape the API documents
    name: 'click link',
    make: (secret, now) => clickQuery(secret, now),
    check: (token, secret, now) => {
      const check = checkClick(new URLSearchParams(token), secret, now)
      return check.counts ? { ok: true } : { ok: false, reason: check.reason }
    },
    lifetimeMs: CLICK_LINK_TTL_MS,
    alterField: (token) => {
      const query = new URLSearchParams(token)
      query.set('n', 'notif_b')
      return query.toString()
    },
    foreign: (secret, now) => {
      const query = new URLSearchParams(clickQuery(secret, now))
      const fields = { n: query.get('n')!, r: query.get('r')!, u: query.get('u')! }
      const expiresAt = Number(query.get('e')) * 1000
      query.set('sig', signatureFor(SIGNING.unsubscribeLink, fields, secret, expiresAt))
      return query.toString()
    },
  },
]

/** `token` with its payload re-encoded with one field changed, the signature kept. */
function withAlteredPayload(token: string): string {
  const [payload, signature] = token.split('.')
  const fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  const name = Object.keys(fields).find((key) => typeof fields[key] === 'string')!
  const altered = { ...fields, [name]: `${fields[name]}x` }
  return `${Buffer.from(JSON.stringify(altered)).toString('base64url')}.${signature}`
}

/** The same payload signed as a token of another purpose would sign it, under the same secret. */
function signedForAnotherPurpose(token: string, secret: string, own: string): string {
  const [payload] = token.split('.')
  const other = own === 'unsubscribe link' ? SIGNING.confirmLink : SIGNING.unsubscribeLink
  const key = createHmac('sha256', secret).update(other).digest()
  return `${payload}.${createHmac('sha256', key).update(`v1.${payload}`).digest('base64url')}`
}

function withAlteredSignature(token: string): string {
  const last = token.at(-1) === 'A' ? 'B' : 'A'
  return `${token.slice(0, -1)}${last}`
}

describe.each(PURPOSES)('$name', (purpose) => {
  const SECRET = 'the-deploy-secret'
  // why: a ticket's check answers 401 whatever the reason (the reason goes to the log only)
  const refusedAs = (reason: string) =>
    purpose.name.endsWith('ticket') ? { ok: false, reason: 'refused' } : { ok: false, reason }

  it('a genuine token acts', () => {
    expect(purpose.check(purpose.make(SECRET, T0), SECRET, T0 + 1)).toEqual({ ok: true })
  })

  it('bad: signed with another secret, or for another purpose under the same secret', () => {
    expect(purpose.check(purpose.make('another-secret', T0), SECRET, T0 + 1)).toEqual(
      refusedAs('bad-signature'),
    )
    const foreign =
      purpose.foreign?.(SECRET, T0) ??
      signedForAnotherPurpose(purpose.make(SECRET, T0), SECRET, purpose.name)
    expect(purpose.check(foreign, SECRET, T0 + 1)).toEqual(refusedAs('bad-signature'))
  })

  it('altered: a changed payload or signature', () => {
    const token = purpose.make(SECRET, T0)
    const alterField = purpose.alterField ?? withAlteredPayload
    expect(purpose.check(alterField(token), SECRET, T0 + 1)).toEqual(refusedAs('bad-signature'))
    expect(purpose.check(withAlteredSignature(token), SECRET, T0 + 1)).toEqual(
      refusedAs('bad-signature'),
    )
  })

  it(
    purpose.lifetimeMs === null
      ? 'stale: it never expires (it must work as long as its record exists)'
      : 'stale: it acts until its lifetime ends, and not from then on',
    () => {
      const token = purpose.make(SECRET, T0)
      if (purpose.lifetimeMs === null) {
        expect(purpose.check(token, SECRET, T0 + 100 * 365 * 24 * 60 * MINUTE)).toEqual({
          ok: true,
        })
        return
      }
      expect(purpose.check(token, SECRET, T0 + purpose.lifetimeMs - 1)).toEqual({ ok: true })
      expect(purpose.check(token, SECRET, T0 + purpose.lifetimeMs)).toEqual(refusedAs('expired'))
    },
  )
})

describe('replayed', () => {
  it('a delivery ticket starts one run; the same ticket again is refused', async () => {
    const services = servicesAt(T0)
    const ticket = issueDeliveryTicket('notif_replay', UNSUBSCRIBE_SECRET, T0)
    const runs: string[] = []
    const run = () =>
      runTicketedDelivery(`${ticket}`, 'notif_replay', {
        ...services,
        deliveryRun: () => {
          runs.push('run')
          throw new Error('the run itself is not under test')
        },
      })
    await expect(run()).rejects.toThrow('the run itself is not under test')
    await expect(run()).rejects.toBeInstanceOf(UnauthorizedError)
    expect(runs).toEqual(['run'])
  })

  it('an export ticket starts one run; the same ticket again is refused', async () => {
    const services = servicesAt(T0)
    const config = exportConfig('admin-token')
    const ticket = requireExportTicket(issueExportTicket('exp_replay', config, T0), config, log, T0)
    const exportServices = {
      jobs: new ExportJobStore(services.repositories.store),
      repositories: services.repositories,
      log,
      now: services.now,
    }
    // why: the first run is admitted and then finds no such export; the second is not admitted
    await expect(runTicketedExport(ticket, 'exp_replay', exportServices)).rejects.toBeInstanceOf(
      NotFoundError,
    )
    await expect(runTicketedExport(ticket, 'exp_replay', exportServices)).rejects.toBeInstanceOf(
      UnauthorizedError,
    )
  })

  it('a manage link that cancelled once never acts again, even after staff restored the reservation', async () => {
    const services = servicesAt(T0)
    const { reservations } = services.repositories
    const ref = { id: 'res_replay', productSlug: 'hario-v60-dripper' }
    await reservations.create(ref, reservation(ref))
    const token = createManageToken(ref, LINK_SECRET, T0)
    const cancel = () =>
      answerManage({ req: post('/reservation/manage', token), form: {}, services })
    expect((await cancel()).status).toBe(200)
    await reservations.update(ref, (record) => ({ ...record, status: 'pending' }))
    expect((await cancel()).status).toBe(409)
    expect((await reservations.get(ref))?.status).toBe('pending')
  })

  it('a rebuild ticket may start runs until it expires: each run is claimed and idempotent', () => {
    const config = { unsubscribeSecret: UNSUBSCRIBE_SECRET }
    const ticket = issueRebuildTicket(UNSUBSCRIBE_SECRET, T0)
    expect(() => requireRebuildTicket(ticket, config, log, T0)).not.toThrow()
    expect(() => requireRebuildTicket(ticket, config, log, T0 + MINUTE)).not.toThrow()
  })

  it('a confirmation link used twice confirms once', async () => {
    const deployContext = `signing-confirm-${process.pid}`
    const { subscriptions } = servicesAt(T0, deployContext).repositories
    const ref = { id: 'ntf_1795143600000-replay0001', productSlug: 'kalita-wave-server' }
    await subscriptions.create(ref, subscription(ref))
    const token = createConfirmationToken(ref, T0 + UNCONFIRMED_TTL_MS, UNSUBSCRIBE_SECRET)
    const confirm = (at: number) =>
      answerConfirm({
        req: post('/api/notify-confirm', token),
        form: {},
        services: servicesAt(at, deployContext),
      })
    expect(await confirm(T0 + MINUTE)).toEqual({ alreadyConfirmed: false })
    expect(await confirm(T0 + 2 * MINUTE)).toEqual({ alreadyConfirmed: true })
    expect((await subscriptions.get(ref))?.confirmedAt).toBe(new Date(T0 + MINUTE).toISOString())
  })

  it('an unsubscribe link used twice unsubscribes once', async () => {
    const deployContext = `signing-unsubscribe-${process.pid}`
    const { subscriptions } = servicesAt(T0, deployContext).repositories
    const ref = { id: 'ntf_1795143600000-replay0002', productSlug: 'kalita-wave-server' }
    await subscriptions.create(ref, subscription(ref, new Date(T0).toISOString()))
    const token = createUnsubscribeToken(ref, UNSUBSCRIBE_SECRET)
    const unsubscribe = (at: number) =>
      answerUnsubscribe({
        req: post('/api/notify-unsubscribe', token),
        form: {},
        services: servicesAt(at, deployContext),
      })
    expect(await unsubscribe(T0 + MINUTE)).toEqual({})
    expect(await unsubscribe(T0 + 2 * MINUTE)).toEqual({})
    expect(await subscriptions.get(ref)).toMatchObject({
      status: 'unsubscribed',
      unsubscribedAt: new Date(T0 + MINUTE).toISOString(),
    })
  })

  it('a click link followed twice counts once', async () => {
    const deployContext = `signing-clicks-${process.pid}`
    const link = {
      noticeId: 'notif_replay',
      subscriptionId: RECORD.id,
      productSlug: RECORD.productSlug,
    }
    const url = clickUrl('http://localhost:8888', link, UNSUBSCRIBE_SECRET, T0)
    for (const at of [T0 + MINUTE, T0 + 2 * MINUTE]) {
      const response = await followClick(new Request(url), servicesAt(at, deployContext))
      expect(response.status).toBe(302)
    }
    expect(
      await servicesAt(T0, deployContext).repositories.demand.countClicks('notif_replay'),
    ).toBe(1)
  })
})
