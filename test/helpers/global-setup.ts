// Runs once before any test file: with TEST_DATABASE_URL set, the database it names must
// exist (created here if not) and answer, or the run stops with one clear message instead
// of every PostgreSQL suite failing on its own. Also builds the empty, migrated embedded
// cluster every PGlite test app starts from, as the build does for a real start: PGlite's
// initdb costs about 2 s of CPU, once per run instead of once per suite.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { writeEmptyCluster } from '../../src/db/empty-cluster.js'
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
  await writeEmptyCluster(join(directory, 'empty-cluster.tar.gz'))
  project.provide('emptyClusterPath', join(directory, 'empty-cluster.tar.gz'))
  return () => rmSync(directory, { recursive: true, force: true })
}
