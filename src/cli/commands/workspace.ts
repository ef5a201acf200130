import type { Command } from 'commander'
import { createWorkspace, listWorkspaces } from '../../admin/workspaces.js'
import { isTier, TIERS } from '../../auth/scopes.js'
import { withDatabase } from '../context.js'
import { createOutput, table, UsageError } from '../output.js'

export function registerWorkspaceCommands(program: Command): void {
  const workspace = program.command('workspace').description('create and list workspaces')

  workspace
    .command('create')
    .description('create a workspace')
    .requiredOption('--name <name>', 'workspace name')
    .option('--tier <tier>', `plan tier: ${TIERS.join(' | ')}`, 'basic')
    .option('--json', 'machine-readable output')
    .action(async (options: { name: string; tier: string; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      if (!options.name.trim()) throw new UsageError('--name must not be empty')
      if (!isTier(options.tier)) throw new UsageError(`--tier must be one of: ${TIERS.join(', ')}`)
      const tier = options.tier
      const created = await withDatabase((database) => createWorkspace(database.db, { name: options.name, tier }))
      out.result(created, [
        `Created workspace "${created.name}" (${created.tier})`,
        `id: ${created.id}`,
        `Next: beacon key create --workspace ${created.id} --scopes read:analytics`,
      ])
    })

  workspace
    .command('list')
    .description('list workspaces')
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const rows = await withDatabase((database) => listWorkspaces(database.db))
      out.result(rows, table(rows as unknown as Record<string, unknown>[], ['id', 'name', 'tier', 'created_at']))
    })
}
