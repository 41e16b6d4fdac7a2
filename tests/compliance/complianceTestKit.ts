import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Context } from '@netlify/functions'
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
