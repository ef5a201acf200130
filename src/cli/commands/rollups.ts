// `beacon rollups rebuild`: recompute the rollup tables from the facts, for one workspace
// or all. Run it after a release changes a rollup family (migrations never backfill with
// application code, docs/rollups.md) or to repair rollups edited by hand.
import type { Command } from 'commander'
import { requireWorkspace, withDatabase } from '../context.js'
import { createOutput } from '../output.js'
import { progressBar } from '../progress-bar.js'

export function registerRollupCommands(program: Command): void {
  program
    .command('rollups')
    .description('maintain the rollup tables')
    .command('rebuild')
    .description('recompute rollups from the stored facts (every workspace unless --workspace)')
    .option('--workspace <id-or-name>', 'only this workspace (id or name)')
    .option('--json', 'machine-readable output')
    .action(async (options: { workspace?: string; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      // Loaded here, not at start-up, so `beacon --help` stays quick.
      const { FAMILIES, familyTables, rebuildRollups } = await import('../../rollups/index.js')
      const result = await withDatabase(async (database) => {
        const workspaces =
          options.workspace === undefined
            ? await database.db.selectFrom('workspace').select(['id', 'name']).orderBy('name').orderBy('id').execute()
            : [await requireWorkspace(database, options.workspace)]
        const tables = FAMILIES.flatMap((f) => familyTables(f))
        const started = Date.now()
        const bar = progressBar(out, workspaces.length * tables.length, 'tables')
        let done = 0
        // One transaction per workspace: each is consistent on its own and readers of the
        // others are not held up. After a bulk load the fact tables may have no statistics
        // yet (autovacuum comes later): the rebuild analyses them first (analyzeIfStale).
        for (const workspace of workspaces) await rebuildRollups(database.db, workspace.id, { analyze: true, onTable: () => bar.update(++done) })
        bar.stop()
        return { workspaces: workspaces.map((w) => ({ id: w.id, name: w.name })), tables, seconds: Math.round((Date.now() - started) / 100) / 10 }
      })
      out.result(
        result,
        `Rebuilt ${result.tables.length} rollup tables for ${result.workspaces.length} workspace${result.workspaces.length === 1 ? '' : 's'} in ${result.seconds} s`,
      )
    })
}
