// The database layer is imported when a command first needs it, not when the CLI starts:
// `beacon --help` and argument errors answer without loading it (docs/architecture.md, start-up).
import { loadConfig, type Config } from '../config.js'
import type { DatabaseHandle } from '../db/database.js'
import type { WorkspaceRecord } from '../admin/workspaces.js'
import { UsageError } from './output.js'

/** Opens the configured database, migrated, for one command, and always closes it. */
export async function withDatabase<T>(fn: (database: DatabaseHandle, config: Config) => Promise<T>, options: { migrate?: boolean } = {}): Promise<T> {
  const config = loadConfig()
  const [{ openDatabase }, { migrateToLatest }, { refreshPlannerStatistics }, { configureAnalysisMemory }] = await Promise.all([
    import('../db/database.js'),
    import('../db/migrate.js'),
    import('../db/dialect.js'),
    import('../analysis/analysis-pool.js'),
  ])
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
  const { findWorkspace } = await import('../admin/workspaces.js')
  const workspace = await findWorkspace(database.db, idOrName)
  if (!workspace) throw new UsageError(`No workspace "${idOrName}"; see "beacon workspace list"`)
  return workspace
}
