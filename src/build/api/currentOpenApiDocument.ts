import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { API_OPERATIONS } from './apiOperations.js'
import { buildOpenApiDocument } from './openApiDocument.js'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

/** The document as the build makes it (the version is package.json's). */
export async function currentOpenApiDocument(): Promise<Record<string, unknown>> {
  const { version } = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'))
  return buildOpenApiDocument(API_OPERATIONS, version)
}
