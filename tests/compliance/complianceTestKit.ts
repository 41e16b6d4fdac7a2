import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Context } from '@netlify/functions'
import { Webhook } from 'svix'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'

export const PRODUCT = 'hario-v60-dripper'

type Handler = (req: Request, context: Context) => Promise<Response>

/** POSTs JSON to a handler with a fresh context; its status and body once its background work settled. */
export async function post(
  handler: Handler,
  path: string,
  body: unknown,
  options: { token?: string; ip?: string; base?: string } = {},
) {
  const context = fakeContext()
  if (options.ip) Object.assign(context, { ip: options.ip })
  const response = await handler(
    jsonRequest(`${options.base ?? ''}${path}`, body, { token: options.token }),
    context,
  )
  await context.settled()
  return { ...(await readJson(response)), requestId: response.headers.get('x-request-id') }
}

/** Every file under `directory` whose path or content holds `needle` (case-insensitive). */
export async function filesHolding(directory: string, needle: string): Promise<string[]> {
  const found: string[] = []
  const lower = needle.toLowerCase()
  const encodings = [lower, encodeURIComponent(lower), Buffer.from(lower).toString('base64url')]
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    const text = (await readFile(path, 'utf8')).toLowerCase()
    if (encodings.some((form) => path.toLowerCase().includes(form) || text.includes(form))) {
      found.push(path)
    }
  }
  return found
}

/** The Resend webhook signing secret of the tests, in the format Resend shows (`whsec_` + base64). */
export const WEBHOOK_SECRET = `whsec_${Buffer.from('resend-webhook-test-secret-32byte').toString('base64')}`

/** A Resend event as Svix signs it; `at` is the signature time (default now). */
export function signedWebhook(
  url: string,
  event: unknown,
  options: { at?: Date; secret?: string; id?: string } = {},
): Request {
  const body = JSON.stringify(event)
  const id = options.id ?? `msg_${crypto.randomUUID()}`
  const at = options.at ?? new Date()
  return new Request(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'svix-id': id,
      'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
      'svix-signature': new Webhook(options.secret ?? WEBHOOK_SECRET).sign(id, at, body),
    },
    body,
  })
}

/** A hard bounce (`Permanent`) or another bounce type of `to`, as Resend reports it. */
export function bounceEvent(to: string, type = 'Permanent') {
  return {
    type: 'email.bounced',
    created_at: '2026-11-22T03:00:00.000Z',
    data: { email_id: crypto.randomUUID(), to: [to], bounce: { type, message: 'mailbox unknown' } },
  }
}

export const WEBHOOK_URL = 'http://localhost:8888/api/resend-webhook'
