// The empty, migrated embedded cluster a new PGlite database loads instead of running
// PostgreSQL's initdb inside PGlite, seconds of CPU (docs/performance.md).
// Built here for both of its makers: the build writes dist/empty-database.tar.gz from this
// module's compiled copy (scripts/build-server.mjs), and the test suite's global setup
// writes one per run from the sources (test/helpers/global-setup.ts).
import { writeFileSync } from 'node:fs'
import { openDatabase } from './database.js'
import { migrateToLatest } from './migrate.js'

/** Writes to `path` a gzipped `dumpDataDir` archive of a new in-memory PGlite cluster migrated to the latest version. */
export async function writeEmptyCluster(path: string): Promise<void> {
  const template = await openDatabase({ databaseUrl: 'memory://', dataDir: '', databasePoolSize: 1 })
  try {
    await migrateToLatest(template.db)
    const dump = await template.connection.pglite!.dumpDataDir('gzip')
    writeFileSync(path, Buffer.from(await dump.arrayBuffer()))
  } finally {
    await template.close()
  }
}
