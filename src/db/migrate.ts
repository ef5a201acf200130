import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely'
import * as initialSchema from './migrations/0001-initial-schema.js'
import * as dailyRollups from './migrations/0003-daily-rollups.js'
import * as rowLevelSecurity from './migrations/0004-row-level-security.js'
import * as rollupTotals from './migrations/0005-rollup-totals.js'
import * as dataVersion from './migrations/0006-data-version.js'
import * as citationRollups from './migrations/0007-citation-rollups.js'
import * as monthlyRollups from './migrations/0008-monthly-rollups.js'
import * as workspaceByKeyHash from './migrations/0009-workspace-by-key-hash.js'
import * as coveringCitationDomainIndex from './migrations/0010-covering-citation-domain-index.js'
import type { DB } from './database.js'
import * as backgroundJobs from './migrations/0011-background-jobs.js'
import * as jobHeartbeat from './migrations/0012-job-heartbeat.js'
import * as collection from './migrations/0013-collection.js'
import * as webhooks from './migrations/0014-webhooks.js'
import * as brandDiscovery from './migrations/0015-brand-discovery.js'
import * as readPathIndexes from './migrations/0016-read-path-indexes.js'
import * as coveringBrandRollupKeys from './migrations/0017-covering-brand-rollup-keys.js'
import * as monthlyStatsByProvider from './migrations/0018-monthly-stats-by-provider.js'
import * as collectionOutcomes from './migrations/0019-collection-outcomes.js'
import * as searchQueries from './migrations/0020-search-queries.js'
import * as notificationChannels from './migrations/0021-notification-channels.js'
import * as urlStatsByQuarterAndYear from './migrations/0022-url-stats-by-quarter-and-year.js'
import * as domainTagDays from './migrations/0023-domain-tag-days.js'
import * as promptDetailRollups from './migrations/0025-prompt-detail-rollups.js'
import * as narrowFactIndexes from './migrations/0026-narrow-fact-indexes.js'
import { grantAppRole } from './tenant-scope.js'

// Migrations are imported, not read from disk, so they work the same from source and
// from a bundle. Add new ones to this list in order; names sort lexically.
const migrations: Record<string, Migration> = {
  '0001-initial-schema': initialSchema,
  '0003-daily-rollups': dailyRollups,
  '0004-row-level-security': rowLevelSecurity,
  '0005-rollup-totals': rollupTotals,
  '0006-data-version': dataVersion,
  '0007-citation-rollups': citationRollups,
  '0008-monthly-rollups': monthlyRollups,
  '0009-workspace-by-key-hash': workspaceByKeyHash,
  '0010-covering-citation-domain-index': coveringCitationDomainIndex,
  '0011-background-jobs': backgroundJobs,
  '0012-job-heartbeat': jobHeartbeat,
  '0013-collection': collection,
  '0014-webhooks': webhooks,
  '0015-brand-discovery': brandDiscovery,
  '0016-read-path-indexes': readPathIndexes,
  '0017-covering-brand-rollup-keys': coveringBrandRollupKeys,
  '0018-monthly-stats-by-provider': monthlyStatsByProvider,
  '0019-collection-outcomes': collectionOutcomes,
  '0020-search-queries': searchQueries,
  '0021-notification-channels': notificationChannels,
  '0022-url-stats-by-quarter-and-year': urlStatsByQuarterAndYear,
  '0023-domain-tag-days': domainTagDays,
  '0025-prompt-detail-rollups': promptDetailRollups,
  '0026-narrow-fact-indexes': narrowFactIndexes,
}

class StaticMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations
  }
}

export interface MigrationReport {
  applied: string[]
}

export async function migrateToLatest(db: DB): Promise<MigrationReport> {
  // The bookkeeping tables live in the schema being migrated, so databases that use one
  // schema per tenant or per test (search_path) never see each other's migrations.
  const { rows } = await sql<{ schema: string; recorded: boolean }>`select current_schema() as schema, to_regclass('kysely_migration') is not null as recorded`.execute(db)
  // Every CLI command and every start migrates first; a database already at the latest
  // migration answers from one read instead of Kysely's lock-and-compare round (a third of a
  // second on the embedded database). Anything else (new, missing or unknown names) goes
  // through the migrator, which applies, or refuses, as before.
  if (rows[0]?.recorded && (await appliedMigrations(db)).join() === Object.keys(migrations).sort().join()) {
    await grantAppRole(db)
    return { applied: [] }
  }
  const schema = rows[0]?.schema ?? 'public'
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider(), migrationTableSchema: schema })
  let { error, results } = await migrator.migrateToLatest()
  // Kysely looks for its bookkeeping tables by listing every table of the database with
  // pg_get_serial_sequence(name): a schema another process drops meanwhile (another tenant's,
  // another test file's) fails that listing with "schema … does not exist" before anything
  // was applied. That is not this schema's problem: look again.
  for (let attempt = 1; attempt <= 10 && error && !results && droppedElsewhere(error, schema); attempt++) ({ error, results } = await migrator.migrateToLatest())
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  // Tables of every migration, old and new, are readable by the service role.
  await grantAppRole(db)
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) }
}

/** PostgreSQL's invalid_schema_name for a schema other than the one being migrated. */
function droppedElsewhere(error: unknown, schema: string): boolean {
  const e = error as { code?: string; message?: string }
  return e?.code === '3F000' && typeof e.message === 'string' && !e.message.includes(`"${schema}"`)
}

async function appliedMigrations(db: DB): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)
  return rows.map((row) => row.name)
}
