// Invokes a function packaged by @netlify/zip-it-and-ship-it through the entry point in its
// archive (`___netlify-entry-point.mjs` → Netlify's bootstrap → our module), the way Netlify's
// Lambda runtime does: a Lambda event with the request, the Blobs context in `event.blobs`, the
// deploy in `x-nf-*` headers, and a response stream (`awslambda.streamifyResponse`, polyfilled
// here as lambda-local does for `netlify dev`). Plain JavaScript, so a process that uses it
// carries nothing but Node and the package (platform/packagedFunctionRunner.mjs,
// bench/adminMemoryChild.mjs).
import { Buffer } from 'node:buffer'
import { Writable } from 'node:stream'
import { pathToFileURL, URL } from 'node:url'

class ResponseCollector extends Writable {
  chunks = []
  prelude = null
  _write(chunk, _encoding, done) {
    this.chunks.push(Buffer.from(chunk))
    done()
  }
}

/**
 * The handler of the packaged function whose entry point is `entry` (a file path), with the
 * Lambda streaming globals Netlify's bootstrap expects installed first.
 */
export async function loadPackagedHandler(entry) {
  globalThis.awslambda ??= {
    streamifyResponse: (handler) => handler,
    HttpResponseStream: {
      from(stream, prelude) {
        stream.prelude = prelude
        return stream
      },
    },
  }
  const { handler } = await import(pathToFileURL(entry).href)
  return handler
}

/**
 * Sends one request ({method, url, headers?, body?}) to a packaged handler, with `platform`
 * ({blobs: {url, token}, siteID, deployContext}) as Netlify hands it over. `answered` resolves
 * with {status, headers, body} when the response has been sent; `settled` when the invocation is
 * over (the work the function handed to `context.waitUntil` included).
 */
export function invokePackaged(handler, request, platform, index) {
  const url = new URL(request.url)
  const blobs = Buffer.from(
    JSON.stringify({
      url: platform.blobs.url,
      url_uncached: platform.blobs.url,
      token: platform.blobs.token,
      primary_region: 'local',
    }),
  ).toString('base64')
  const event = {
    rawUrl: url.href,
    rawQuery: url.search,
    path: url.pathname,
    httpMethod: request.method,
    headers: {
      'x-nf-site-id': platform.siteID,
      'x-nf-deploy-id': 'packaged-deploy',
      'x-nf-deploy-context': platform.deployContext,
      'x-nf-deploy-published': 'false',
      'x-nf-request-id': `packaged-${index}`,
      ...request.headers,
    },
    multiValueHeaders: {},
    queryStringParameters: Object.fromEntries(url.searchParams),
    multiValueQueryStringParameters: {},
    body: request.body ?? null,
    isBase64Encoded: false,
    blobs,
    flags: {},
  }
  const stream = new ResponseCollector()
  const finished = new Promise((resolve) => stream.on('finish', resolve))
  const settled = Promise.resolve(
    handler(event, stream, {
      awsRequestId: `packaged-${index}`,
      getRemainingTimeInMillis: () => 30_000,
      clientContext: { custom: {} },
    }),
  )
  const answered = finished.then(() => ({
    status: stream.prelude?.statusCode ?? null,
    headers: Object.fromEntries(
      Object.entries(stream.prelude?.multiValueHeaders ?? {}).map(([name, values]) => [
        name.toLowerCase(),
        values.join(', '),
      ]),
    ),
    body: Buffer.concat(stream.chunks).toString('utf8'),
  }))
  return { answered, settled: settled.then(() => undefined) }
}
