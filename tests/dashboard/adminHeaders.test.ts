import { fileURLToPath } from 'node:url'
import { resolveConfig } from '@netlify/config'
import { describe, expect, it } from 'vitest'

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

describe('netlify.toml: headers of the admin dashboard', () => {
  it('parses with Netlify’s own reader and secures /admin/*', async () => {
    const { config } = await resolveConfig({
      repositoryRoot: repoRoot,
      cwd: repoRoot,
      offline: true,
    })
    const admin = (config.headers ?? []).find((rule: { for: string }) => rule.for === '/admin/*')
    expect(admin).toBeDefined()
    const values = admin!.values as Record<string, string>
    const csp = Object.fromEntries(
      values['Content-Security-Policy']
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...sources]) => [name, sources]),
    )
    expect(csp['script-src']).toEqual(["'self'"])
    expect(csp['default-src']).toEqual(["'none'"])
    expect(csp['frame-ancestors']).toEqual(["'none'"])
    expect(csp['style-src']).toEqual(["'self'"])
    expect(values['Referrer-Policy']).toBe('no-referrer')
    expect(values['Cache-Control']).toBe('no-store')
  })
})
