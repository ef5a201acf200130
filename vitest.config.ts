import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Fault tests start and stop private services; they run on their own (npm run test:faults).
    exclude: ['test/faults/**', 'node_modules/**'],
    // Creates TEST_DATABASE_URL's database if it is missing, and fails early if it is unusable.
    globalSetup: ['test/helpers/global-setup.ts'],
    // PGlite boots a WASM Postgres per suite; give slow CI machines room.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
})
