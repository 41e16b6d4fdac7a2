// Invokes one function packaged by @netlify/zip-it-and-ship-it through the entry point in its
// archive (`___netlify-entry-point.mjs` → Netlify's bootstrap → our module), the way Netlify's
// Lambda runtime does: a Lambda event with the request, the Blobs context in `event.blobs`, the
// deploy in `x-nf-*` headers, and a response stream (`awslambda.streamifyResponse`, polyfilled
// here as lambda-local does for `netlify dev`).
//
// Usage: node packagedFunctionRunner.mjs '<json>' with
// {entry, blobs: {url, token}, siteID, deployContext, requests: [{method, url, headers?, body?}]}.
// Prints one line `PACKAGED_RESULT [{status, headers, body}, …]` (other lines are the function's logs).
import { Buffer } from 'node:buffer'
import console from 'node:console'
import process from 'node:process'
import { Writable } from 'node:stream'
import { pathToFileURL, URL } from 'node:url'

const input = JSON.parse(process.argv[2])

globalThis.awslambda = {
  streamifyResponse: (handler) => handler,
  HttpResponseStream: {
    from(stream, prelude) {
      stream.prelude = prelude
      return stream
    },
  },
}

class ResponseCollector extends Writable {
  chunks = []
  prelude = null
  _write(chunk, _encoding, done) {
    this.chunks.push(Buffer.from(chunk))
    done()
  }
}

const { handler } = await import(pathToFileURL(input.entry).href)
const blobs = Buffer.from(
  JSON.stringify({
    url: input.blobs.url,
    url_uncached: input.blobs.url,
    token: input.blobs.token,
    primary_region: 'local',
  }),
).toString('base64')

const results = []
for (const [index, request] of input.requests.entries()) {
  const url = new URL(request.url)
  const event = {
    rawUrl: url.href,
    rawQuery: url.search,
    path: url.pathname,
    httpMethod: request.method,
    headers: {
      'x-nf-site-id': input.siteID,
      'x-nf-deploy-id': 'packaged-test-deploy',
      'x-nf-deploy-context': input.deployContext,
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
  await handler(event, stream, {
    awsRequestId: `packaged-${index}`,
    getRemainingTimeInMillis: () => 30_000,
    clientContext: { custom: {} },
  })
  await finished
  const headers = Object.fromEntries(
    Object.entries(stream.prelude?.multiValueHeaders ?? {}).map(([name, values]) => [
      name.toLowerCase(),
      values.join(', '),
    ]),
  )
  results.push({
    status: stream.prelude?.statusCode ?? null,
    headers,
    body: Buffer.concat(stream.chunks).toString('utf8'),
  })
}
console.log(`PACKAGED_RESULT ${JSON.stringify(results)}`)
