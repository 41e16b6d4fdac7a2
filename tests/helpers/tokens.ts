import { beforeAll, beforeEach } from 'vitest'

/** The admin token group's token in every test (ADMIN_API_TOKEN). */
export const ADMIN_TOKEN = 'admin-token-for-tests'
/** The pre-order token group's token, different from the admin one (D7; PREORDER_API_TOKEN). */
export const PREORDER_TOKEN = 'preorder-token-for-tests'

/** Sets both token groups to their different values (D7). */
export function setApiTokens(): void {
  process.env.ADMIN_API_TOKEN = ADMIN_TOKEN
  process.env.PREORDER_API_TOKEN = PREORDER_TOKEN
}

/**
 * Sets both token groups (`setApiTokens`): `'once'` before the file's first test, `'eachTest'`
 * before every test (for files whose tests change them). Default: `'once'`.
 */
export function useApiTokens(when: 'once' | 'eachTest' = 'once'): void {
  if (when === 'eachTest') beforeEach(setApiTokens)
  else beforeAll(setApiTokens)
}
