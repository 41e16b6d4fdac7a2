import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // why: end-to-end files start their own dev server; two cores cannot run many at once
    maxWorkers: 2,
    // why: a status e-mail waits before it goes (RESERVATION_STATUS_EMAIL_DELAY_MS); only the tests
    // of that wait set one
    env: { RESERVATION_STATUS_EMAIL_DELAY_MS: '0' },
  },
})
