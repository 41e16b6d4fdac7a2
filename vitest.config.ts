import { defineConfig } from 'vitest/config'

const BROWSER_FILES = 'tests/**/*.browser.test.ts'

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // why: an end-to-end file's beforeAll starts npm start's dev server, which gives up with its
    // output before this (platform/startDevServer.ts); the browser files set their own limit
    hookTimeout: 120_000,
    // why: end-to-end files start their own dev server; two cores cannot run many at once
    maxWorkers: 2,
    // why: a status e-mail waits before it goes (RESERVATION_STATUS_EMAIL_DELAY_MS); only the tests
    // of that wait set one. Quiet hours follow the clock of a request, which is the wall clock in
    // tests that give none (and in every dev server they start): off, so that no test depends on
    // the hour it runs at; the tests of quiet hours set them, on a clock of their own
    env: { RESERVATION_STATUS_EMAIL_DELAY_MS: '0', QUIET_HOURS: 'off' },
    projects: [
      {
        extends: true,
        test: { name: 'node', include: ['tests/**/*.test.ts'], exclude: [BROWSER_FILES] },
      },
      {
        extends: true,
        test: {
          name: 'chromium',
          include: [BROWSER_FILES],
          // why: the files share one service per profile and empty its data before they start
          // (tests/helpers/sharedService.ts), so they run one after another
          fileParallelism: false,
          globalSetup: ['tests/helpers/sharedServiceSetup.ts'],
        },
      },
    ],
  },
})
