import { defineConfig } from 'vitest/config'

// Files that time what they test (deadlines, "at once", overlap), drive a browser or spawn
// the CLI with an embedded database: they run one at a time after the rest, which runs on two
// workers. Every suite has its own schema (test/helpers/test-app.ts), so files can overlap;
// what cannot is a time bound measured while another file's PGlite holds the other core.
const ONE_AT_A_TIME = [
  'test/web/**/*.e2e.test.ts',
  'test/cli/**/*.test.ts',
  'test/**/*-cli.test.ts',
  'test/collection/adapters/**/*.test.ts',
  'test/collection/collection-crash.test.ts',
  'test/collection/collection-runs.test.ts',
  'test/collection/provider-limits.test.ts',
  'test/exports/**/*.test.ts',
  'test/jobs/**/*.test.ts',
  'test/security/slow-clients.test.ts',
  'test/security/secret-rekey-crash.test.ts',
  'test/webhooks/**/*.test.ts',
  'test/analysis/matcher-cache.test.ts',
  'test/http/abandoned-request.test.ts',
  // drops schemas in a loop to race the migrator; not beside other files' migrations
  'test/db/migrate-beside-drops.test.ts',
]
// Fault tests start and stop private services; they run on their own (npm run test:faults).
const NOT_HERE = ['test/faults/**', 'node_modules/**']

export default defineConfig({
  test: {
    // Creates TEST_DATABASE_URL's database if it is missing, and fails early if it is unusable;
    // builds the migrated empty cluster PGlite test apps start from.
    globalSetup: ['test/helpers/global-setup.ts'],
    // PGlite boots a WASM Postgres per suite; give slow CI machines room.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'parallel', include: ['test/**/*.test.ts'], exclude: [...NOT_HERE, ...ONE_AT_A_TIME], maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: 'one-at-a-time', include: ONE_AT_A_TIME, exclude: NOT_HERE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
})
