import { afterAll, beforeAll } from 'vitest'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { ADMIN_TOKEN } from './tokens.js'

/** The running servers of `useRestockDevServer`, read inside tests and hooks. */
export interface RestockDevServer {
  readonly server: RunningDevServer
  readonly resend: RecordingServer
}

/**
 * `npm start` (platform/startDevServer.ts) delivering restock e-mail to a Resend stand-in, with
 * the admin token of tests/helpers/tokens.ts and `env` on top: started before the file's first
 * test, stopped after its last.
 */
export function useRestockDevServer(env: Record<string, string> = {}): RestockDevServer {
  let started: { server: RunningDevServer; resend: RecordingServer } | null = null
  let resend: RecordingServer | null = null
  beforeAll(async () => {
    resend = await startRecordingServer()
    const server = await startDevServer({
      ADMIN_API_TOKEN: ADMIN_TOKEN,
      PREORDER_API_TOKEN: '',
      RESEND_API_KEY: 're_test_key',
      RESEND_FROM_EMAIL: 'shop@example.jp',
      RESEND_BASE_URL: resend.url,
      UNSUBSCRIBE_SECRET: 'e2e-unsubscribe-secret',
      ...env,
    })
    started = { server, resend }
  }, 180_000)
  afterAll(async () => {
    await started?.server.stop()
    await resend?.close()
  })
  const running = () => {
    if (!started) throw new Error('useRestockDevServer: read the servers inside a test or hook')
    return started
  }
  return {
    get server() {
      return running().server
    },
    get resend() {
      return running().resend
    },
  }
}
