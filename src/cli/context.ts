import { loadConfig, type Config } from '../config.js'
import { openDatabase, type DatabaseHandle } from '../db/database.js'
import { migrateToLatest } from '../db/migrate.js'
import { refreshPlannerStatistics } from '../db/dialect.js'
import { findWorkspace, type WorkspaceRecord } from '../admin/workspaces.js'
import { UsageError } from './output.js'
import { configureAnalysisMemory } from '../analysis/analysis-pool.js'

/** Opens the configured database, migrated, for one command, and always closes it. */
export async function withDatabase<T>(fn: (database: DatabaseHandle, config: Config) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> {
  const config = loadConfig()
  configureAnalysisMemory(config)
  const database = await openDatabase(config)
  try {
    if (options.migrate !== false) await migrateToLatest(database.db)
    const result = await fn(database, config)
    // Imports and the demo fill tables; the next start should not plan for empty ones.
    await refreshPlannerStatistics(database)
    return result
  } finally {
    await database.close()
  }
}

export async function requireWorkspace(database: DatabaseHandle, idOrName: string | undefined): Promise<WorkspaceRecord> {
  if (!idOrName) throw new UsageError('--workspace is required (a workspace id or name; see "beacon workspace list")')
  const workspace = await findWorkspace(database.db, idOrName)
  if (!workspace) throw new UsageError(`No workspace "${idOrName}"; see "beacon workspace list"`)
  return workspace
}
