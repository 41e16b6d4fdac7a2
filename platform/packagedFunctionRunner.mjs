// Invokes one function packaged by @netlify/zip-it-and-ship-it as Netlify's Lambda runtime does
// (platform/packagedInvocation.mjs), for a series of requests in order.
//
// Usage: node packagedFunctionRunner.mjs '<json>' with
// {entry, blobs: {url, token}, siteID, deployContext, requests: [{method, url, headers?, body?}]}.
// Prints one line `PACKAGED_RESULT [{status, headers, body}, …]` (other lines are the function's logs).
import console from 'node:console'
import process from 'node:process'
import { invokePackaged, loadPackagedHandler } from './packagedInvocation.mjs'

const input = JSON.parse(process.argv[2])
const handler = await loadPackagedHandler(input.entry)

const results = []
for (const [index, request] of input.requests.entries()) {
  const invocation = invokePackaged(handler, request, input, index)
  await invocation.settled
  results.push(await invocation.answered)
}
console.log(`PACKAGED_RESULT ${JSON.stringify(results)}`)
