/**
 * `npm start`: the whole service on http://localhost:8888 (PORT overrides; 0 picks a free port)
 * through Netlify's own local emulation: functions routed by their `config.path`, static files
 * from `public/`, a local Blobs sandbox under `.netlify/`, env vars (process and `.env`) and
 * `context.waitUntil`. No account, no network.
 */
import { existsSync } from 'node:fs'
import http from 'node:http'
import { Readable } from 'node:stream'
import { NetlifyDev } from '@netlify/dev'
import { shouldBase64Encode } from '@netlify/dev-utils'
import { AtomicBlobsServer } from './atomicBlobsServer.js'

/** Starts our atomic local Blobs server and points every function at it (LOCAL_BLOBS_SERVER). */
async function startLocalBlobs(): Promise<AtomicBlobsServer> {
  const token = crypto.randomUUID()
  const blobs = new AtomicBlobsServer({ directory: '.netlify/local-blobs', token, port: 0 })
  const { port } = await blobs.start()
  process.env.LOCAL_BLOBS_SERVER = JSON.stringify({
    edgeURL: `http://127.0.0.1:${port}`,
    siteID: 'local-site',
    token,
  })
  return blobs
}

/** Values that make the local service usable out of the box; never used on Netlify. */
const LOCAL_DEFAULTS: Record<string, string> = {
  ADMIN_API_TOKEN: 'local-admin-token',
  UNSUBSCRIBE_SECRET: 'local-unsubscribe-secret',
}

function loadEnvironment(): void {
  if (existsSync('.env')) process.loadEnvFile('.env')
  for (const [name, value] of Object.entries(LOCAL_DEFAULTS)) {
    if (process.env[name]) continue
    if (name === 'ADMIN_API_TOKEN' && process.env.PREORDER_API_TOKEN) continue
    process.env[name] = value
    console.log(`${name} is not set: using the local development default (see README)`)
  }
}

/**
 * The incoming request as Netlify hands it to a function. The local emulation marks a body whose
 * Content-Type is missing or binary (`application/octet-stream`, ...) as base64 without encoding
 * it, so the function got garbage (`Invalid JSON body` for valid JSON sent without a type).
 * Netlify itself encodes such bodies and the runtime decodes them: do the encoding here.
 */
async function webRequestOf(req: http.IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  const chunks: Buffer[] = []
  if (hasBody) for await (const chunk of req) chunks.push(chunk as Buffer)
  const bytes = Buffer.concat(chunks)
  const binary = shouldBase64Encode(headers.get('content-type') ?? '')
  // why: bytes, not a string: a string body would make Request add `text/plain` when no type was sent
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    body:
      hasBody && bytes.length > 0 ? (binary ? Buffer.from(bytes.toString('base64')) : bytes) : null,
  })
}

async function main(): Promise<void> {
  loadEnvironment()
  const blobs = await startLocalBlobs()
  const requestedPort = Number(process.env.PORT ?? 8888)
  let dev: NetlifyDev | null = null
  let ready: (value: NetlifyDev) => void = () => undefined
  const started = new Promise<NetlifyDev>((resolve) => (ready = resolve))

  const server = http.createServer(async (req, res) => {
    try {
      const netlify = dev ?? (await started)
      const origin = `http://${req.headers.host ?? 'localhost'}`
      const match = await netlify.handleAndIntrospect(await webRequestOf(req, origin))
      if (!match) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found')
        return
      }
      const { response } = match
      const headers: Record<string, string | string[]> = {}
      response.headers.forEach((value, name) => {
        if (name === 'set-cookie') return
        headers[name] = value
      })
      const cookies = response.headers.getSetCookie()
      if (cookies.length) headers['set-cookie'] = cookies
      res.writeHead(response.status, headers)
      if (response.body) Readable.fromWeb(response.body as never).pipe(res)
      else res.end()
    } catch (error) {
      console.error('dev-server: request failed', error)
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' })
      res.end('Local emulation failed; see the terminal')
    }
  })

  await new Promise<void>((resolve) => server.listen(requestedPort, resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : requestedPort
  const url = `http://localhost:${port}`
  dev = new NetlifyDev({
    projectRoot: process.cwd(),
    serverAddress: url,
    aiGateway: { enabled: false },
    database: { enabled: false },
    edgeFunctions: { enabled: false },
    geolocation: { enabled: false },
    images: { enabled: false },
  })
  await dev.start()
  ready(dev)
  console.log(`Service running on ${url}`)

  let stopping = false
  const stop = async (): Promise<void> => {
    if (stopping) return
    stopping = true
    console.log('Stopping…')
    server.close()
    server.closeAllConnections()
    await dev?.stop().catch(() => undefined)
    await blobs.stop().catch(() => undefined)
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
