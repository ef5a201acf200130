import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // PGlite boots a WASM Postgres per suite; give slow CI machines room.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
})
