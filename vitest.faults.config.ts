import { defineConfig } from 'vitest/config'

// Fault tests start, stop and kill private PostgreSQL, Redis and Beacon processes on
// their own ports: one file at a time, with room for cluster start-up and recoveries.
// BEACON_FAULT_TESTS tells the files they were started here and not by the main suite,
// whose include pattern also matches test/faults/.
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    env: { BEACON_FAULT_TESTS: '1' },
  },
})
