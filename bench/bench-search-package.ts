/**
 * The search function's package as Netlify builds it: netlify.toml read by Netlify's config
 * reader, the function zipped by @netlify/zip-it-and-ship-it (`zipFunction`, as a Netlify build
 * calls it) with the data file of a generated site. Used by bench-search.ts.
 */
import { cp, mkdir, mkdtemp, readFile, rm, stat, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { zipFunction } from '@netlify/zip-it-and-ship-it'
import { packageSettings } from '../platform/functionPackages.js'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** Sizes of the zipped archive and of the files it holds, in bytes. */
export interface PackageSize {
  zipped: number
  unzipped: number
}

/**
 * Zips the search function of this project with the generated files of `generatedDir` (a
 * build's `src/generated`) in place of the project's own.
 */
export async function packagedSearchSize(generatedDir: string): Promise<PackageSize> {
  const project = await projectWithGenerated(generatedDir)
  try {
    const zip = await packageSearchFunction(project, 'zip')
    return { zipped: (await stat(zip)).size, unzipped: await unzippedSize(zip) }
  } finally {
    await rm(project, { recursive: true, force: true })
  }
}

/**
 * A copy of this project (in a new temporary folder, the caller removes it) whose
 * `src/generated` holds the files of `generatedDir` over the project's own.
 * why: a project of its own, as a deploy of that site would be: the function traced with its
 * imports (the generated module included), the data file added by `included_files`
 */
export async function projectWithGenerated(generatedDir: string): Promise<string> {
  const project = await mkdtemp(path.join(tmpdir(), 'bench-package-'))
  for (const entry of ['netlify.toml', 'package.json', 'tsconfig.json', 'netlify/functions']) {
    await cp(path.join(REPO_ROOT, entry), path.join(project, entry), { recursive: true })
  }
  await cp(path.join(REPO_ROOT, 'src'), path.join(project, 'src'), {
    recursive: true,
    filter: (source) => !source.startsWith(path.join(REPO_ROOT, 'src/generated')),
  })
  await cp(path.join(REPO_ROOT, 'src/generated'), path.join(project, 'src/generated'), {
    recursive: true,
  })
  await cp(generatedDir, path.join(project, 'src/generated'), { recursive: true })
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(project, 'node_modules'))
  return project
}

/**
 * The search function of `project` packaged as a Netlify build packages it (netlify.toml read
 * by Netlify's config reader, zip-it-and-ship-it) into `project/.zipped`: the archive's path,
 * or with `none` the folder of the unzipped function.
 */
export async function packageSearchFunction(
  project: string,
  archiveFormat: 'zip' | 'none',
): Promise<string> {
  const out = path.join(project, '.zipped')
  await mkdir(out)
  const result = await zipFunction(path.join(project, 'netlify/functions/search.ts'), out, {
    archiveFormat,
    basePath: project,
    repositoryRoot: project,
    config: await packageSettings(project),
  })
  if (!result?.path) throw new Error('zip-it-and-ship-it packaged no search function')
  return result.path
}

/** The total uncompressed size of a zip archive's files (its central directory's sizes). */
async function unzippedSize(zip: string): Promise<number> {
  const bytes = await readFile(zip)
  // why: the end-of-central-directory record: signature 0x06054b50, directory offset at +16
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  let at = bytes.readUInt32LE(end + 16)
  let total = 0
  while (bytes.readUInt32LE(at) === 0x02014b50) {
    total += bytes.readUInt32LE(at + 24)
    at +=
      46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32)
  }
  return total
}
