import path from 'node:path'
import { bundleSearchFunction } from './bench-search-process.js'
const dir = process.argv[2]!
await bundleSearchFunction(path.join(dir, 'netlify/functions/search.mjs'), path.join(dir, 'src/generated/siteContent.ts'))
