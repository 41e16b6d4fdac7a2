import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { LOCAL_BLOBS_SERVER_VARIABLE } from '../../src/lib/storage/blobStore.js'

/** Every variable the code reads is in .env.example (with its comment) and in the README's table. */

const root = new URL('../../', import.meta.url)
const read = (file: string) => readFile(new URL(file, root), 'utf8')

/** Names passed to the readers of src/lib/config.ts: `optional(env, 'NAME')` and the like. */
async function configVariables(): Promise<string[]> {
  const source = await read('src/lib/config.ts')
  const names = [...source.matchAll(/\(env, '([A-Z][A-Z0-9_]*)'/g)].map((match) => match[1])
  return [...new Set(names)].sort()
}

/** Read outside config.ts: the local Blobs switch, the Resend SDK's base URL, npm start, the build. */
const OTHER_VARIABLES = [LOCAL_BLOBS_SERVER_VARIABLE, 'RESEND_BASE_URL', 'PORT', 'CONTENT_DIR']

function readmeSection(readme: string, heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`)
  expect(start).toBeGreaterThan(-1)
  const end = readme.indexOf('\n## ', start + 1)
  return readme.slice(start, end === -1 ? undefined : end)
}

describe('configuration docs', () => {
  it('finds the variables config.ts reads', async () => {
    const names = await configVariables()
    expect(names).toEqual(
      expect.arrayContaining(['ADMIN_API_TOKEN', 'SITE_URL', 'DEPLOY_PRIME_URL', 'CONTEXT']),
    )
    expect(names.length).toBeGreaterThanOrEqual(15)
  })

  it('lists every variable in .env.example, each under a comment line', async () => {
    const lines = (await read('.env.example')).split('\n')
    for (const name of [...(await configVariables()), ...OTHER_VARIABLES]) {
      const index = lines.findIndex((line) => new RegExp(`^#? ?${name}[=:]`).test(line))
      expect({ name, listed: index >= 0 }).toEqual({ name, listed: true })
      const commented = lines[index].startsWith(`# ${name}:`) || lines[index - 1].startsWith('# ')
      expect({ name, commented }).toEqual({ name, commented: true })
    }
  })

  it('lists every variable in the README Configuration table', async () => {
    const table = readmeSection(await read('README.md'), 'Configuration')
    for (const name of [...(await configVariables()), ...OTHER_VARIABLES]) {
      expect({ name, documented: table.includes(`\`${name}\``) }).toEqual({
        name,
        documented: true,
      })
    }
  })
})
