import type { Context } from '@netlify/functions'

export interface TestContext extends Context {
  /** Resolves when every promise handed to `waitUntil` has settled. */
  settled(): Promise<void>
  /** Promises handed to `waitUntil`, in order. */
  readonly deferred: Promise<unknown>[]
}

/** A Netlify `Context` with the parts our code uses; `waitUntil` records what it is given. */
export function fakeContext(
  overrides: { deployContext?: string; requestId?: string } = {},
): TestContext {
  const deferred: Promise<unknown>[] = []
  const context = {
    requestId: overrides.requestId ?? `req-${crypto.randomUUID()}`,
    deploy: { context: overrides.deployContext ?? 'dev', id: 'test', published: false },
    waitUntil: (promise: Promise<unknown>) => {
      deferred.push(promise)
    },
    deferred,
    async settled() {
      let seen = -1
      while (seen !== deferred.length) {
        seen = deferred.length
        await Promise.allSettled(deferred)
      }
    },
  }
  return context as unknown as TestContext
}
