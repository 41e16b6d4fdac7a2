/**
 * Functions packaged as a Netlify build packages them: netlify.toml read by Netlify's config
 * reader, each function handed to @netlify/zip-it-and-ship-it with the `[functions]` settings as
 * the build hands them over. Used by tests/foundation/packagedFunctions.test.ts and the benches
 * that measure what ships.
 */
import path from 'node:path'
import { resolveConfig } from '@netlify/config'
import { zipFunction, type Config, type FunctionConfig } from '@netlify/zip-it-and-ship-it'

/**
 * The `[functions]` settings of the project at `projectRoot` by function name (`*` for all).
 * why: Netlify's build hands zip-it-and-ship-it the config with camel-cased keys
 */
export async function packageSettings(projectRoot: string): Promise<Config> {
  const { config } = await resolveConfig({
    repositoryRoot: projectRoot,
    cwd: projectRoot,
    offline: true,
  })
  return Object.fromEntries(
    Object.entries(config.functions ?? {}).map(([name, own]: [string, any]) => [
      name,
      {
        nodeBundler: own.node_bundler as FunctionConfig['nodeBundler'],
        includedFiles: own.included_files,
      },
    ]),
  )
}

/**
 * Packages `netlify/functions/{name}.ts` of the project at `projectRoot` into `out`, unzipped:
 * the path of its entry point (`___netlify-entry-point.mjs`, for packagedInvocation.mjs).
 */
export async function packageFunctionFolder(
  projectRoot: string,
  name: string,
  out: string,
): Promise<string> {
  const result = await zipFunction(path.join(projectRoot, 'netlify/functions', `${name}.ts`), out, {
    archiveFormat: 'none',
    basePath: projectRoot,
    repositoryRoot: projectRoot,
    config: await packageSettings(projectRoot),
  })
  if (!result?.path) throw new Error(`zip-it-and-ship-it packaged no function ${name}`)
  return path.join(result.path, result.entryFilename)
}
