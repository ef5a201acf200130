// Runs once before any test file: with TEST_DATABASE_URL set, the database it names must
// exist (created here if not) and answer, or the run stops with one clear message instead
// of every PostgreSQL suite failing on its own. Also builds the empty, migrated embedded
// cluster every PGlite test app starts from, as the build does for a real start: PGlite's
// initdb costs about 2 s of CPU, once per run instead of once per suite.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '../../src/db/database.js'
import { migrateToLatest } from '../../src/db/migrate.js'
import { ensureTestDatabase } from './test-database.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** a `dumpDataDir` archive of an empty PGlite cluster migrated to the latest version */
    emptyClusterPath: string
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const url = process.env.TEST_DATABASE_URL
  if (url) await ensureTestDatabase(url)
  const directory = mkdtempSync(join(tmpdir(), 'beacon-test-cluster-'))
  const template = await openDatabase({ databaseUrl: 'memory://', dataDir: '', databasePoolSize: 1 })
  try {
    await migrateToLatest(template.db)
    const dump = await template.connection.pglite!.dumpDataDir('gzip')
    writeFileSync(join(directory, 'empty-cluster.tar.gz'), Buffer.from(await dump.arrayBuffer()))
  } finally {
    await template.close()
  }
  project.provide('emptyClusterPath', join(directory, 'empty-cluster.tar.gz'))
  return () => rmSync(directory, { recursive: true, force: true })
}
