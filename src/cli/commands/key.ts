import type { Command } from 'commander'
import { createApiKey, listApiKeys, revokeApiKey } from '../../admin/api-key-store.js'
import { isScope, SCOPES, type Scope } from '../../auth/scopes.js'
import { requireWorkspace, withDatabase } from '../context.js'
import { createOutput, table, UsageError } from '../output.js'

export function parseScopes(raw: string): Scope[] {
  const scopes = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ]
  if (scopes.length === 0) throw new UsageError(`--scopes needs at least one of: ${SCOPES.join(', ')}`)
  const unknown = scopes.filter((s) => !isScope(s))
  if (unknown.length) throw new UsageError(`Unknown scope ${unknown.map((s) => `"${s}"`).join(', ')}; allowed: ${SCOPES.join(', ')}`)
  return scopes as Scope[]
}

export function registerKeyCommands(program: Command): void {
  const key = program.command('key').description('create, list and revoke API keys')

  key
    .command('create')
    .description('create an API key; the key is printed once and never stored')
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .requiredOption('--scopes <list>', `comma-separated: ${SCOPES.join(', ')}`)
    .option('--name <name>', 'a label for the key', '')
    .option('--expires-in-days <days>', 'expire the key after this many days')
    .option('--json', 'machine-readable output')
    .action(async (options: { workspace: string; scopes: string; name: string; expiresInDays?: string; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const scopes = parseScopes(options.scopes)
      let expiresAt: Date | null = null
      if (options.expiresInDays !== undefined) {
        if (!/^\d+$/.test(options.expiresInDays) || Number(options.expiresInDays) < 1 || Number(options.expiresInDays) > 3650) {
          throw new UsageError('--expires-in-days must be a whole number from 1 to 3650')
        }
        expiresAt = new Date(Date.now() + Number(options.expiresInDays) * 86_400_000)
      }
      const created = await withDatabase(async (database) => {
        const workspace = await requireWorkspace(database, options.workspace)
        return createApiKey(database.db, { workspaceId: workspace.id, scopes, name: options.name, expiresAt })
      })
      out.result({ id: created.id, key: created.key, workspace_id: created.workspace_id, name: created.name, scopes: created.scopes, expires_at: created.expires_at }, [
        `API key (shown once; store it now):`,
        ``,
        `  ${created.key}`,
        ``,
        `id: ${created.id}  scopes: ${created.scopes.join(',')}${created.expires_at ? `  expires: ${created.expires_at.toISOString()}` : ''}`,
      ])
    })

  key
    .command('list')
    .description("list a workspace's keys (never the keys themselves)")
    .requiredOption('--workspace <id-or-name>', 'workspace id or name')
    .option('--json', 'machine-readable output')
    .action(async (options: { workspace: string; json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      const keys = await withDatabase(async (database) => listApiKeys(database.db, (await requireWorkspace(database, options.workspace)).id))
      out.result(keys, table(keys as unknown as Record<string, unknown>[], ['id', 'key_prefix', 'name', 'scopes', 'created_at', 'expires_at', 'revoked_at', 'last_used_at']))
    })

  key
    .command('revoke')
    .description('revoke an API key by its id')
    .argument('<key-id>', 'the key id from "beacon key list"')
    .option('--json', 'machine-readable output')
    .action(async (keyId: string, options: { json?: boolean }) => {
      const out = createOutput(Boolean(options.json))
      if (!/^[0-9a-f-]{36}$/i.test(keyId)) throw new UsageError('<key-id> must be a key id (a UUID) from "beacon key list"')
      const revoked = await withDatabase((database) => revokeApiKey(database.db, keyId))
      if (!revoked) throw new UsageError(`No key with id ${keyId}`)
      out.result(revoked, `Revoked key ${revoked.key_prefix}… (${revoked.id})`)
    })
}
