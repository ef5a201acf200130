// Provider API keys stored per workspace (DESIGN §14): sealed with AES-256-GCM under
// BEACON_SECRET_KEY, the context binding each one to its workspace and name (a sealed value
// copied to another row does not open). Never returned: lists show the name and last 4.
import type { DB } from '../db/database.js'
import { AppError } from '../core/errors.js'
import { SecretBox, SecretKeyError, lastFour, type SecretKeys } from '../security/secret-box.js'

export const credentialContext = (workspaceId: string, name: string) => `credential:${workspaceId}:${name}`

/** Credentials without a stored one come from the environment, by provider. */
export const ENV_KEYS: Record<string, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GEMINI_API_KEY',
  perplexity: 'PERPLEXITY_API_KEY',
  serpapi: 'SERPAPI_API_KEY',
  dataforseo: 'DATAFORSEO_API_KEY',
  openai_compatible: 'OPENAI_COMPATIBLE_API_KEY',
}

export const CREDENTIAL_PROVIDERS = Object.keys(ENV_KEYS)

export interface CredentialView {
  name: string
  provider: string
  last_four: string
  created_at: Date
  updated_at: Date
}

function box(secretKey: string | undefined): SecretBox {
  try {
    return SecretBox.fromSecretKey(secretKey)
  } catch (error) {
    if (error instanceof SecretKeyError) throw new AppError(503, 'service_unavailable', `Credentials cannot be stored: ${error.message}, then restart Beacon`)
    throw error
  }
}

/** Stores (or replaces) a credential; targets flagged for a bad key that use it are unflagged. */
export async function putCredential(
  db: DB,
  workspaceId: string,
  name: string,
  input: { provider: string; api_key: string },
  secretKey: string | undefined,
): Promise<CredentialView> {
  const apiKey = input.api_key.trim()
  const sealed = box(secretKey).seal(apiKey, credentialContext(workspaceId, name))
  const now = new Date()
  const row = await db
    .insertInto('collection_credential')
    .values({ workspace_id: workspaceId, name, provider: input.provider, sealed, last_four: lastFour(apiKey), updated_at: now })
    .onConflict((oc) => oc.columns(['workspace_id', 'name']).doUpdateSet({ provider: input.provider, sealed, last_four: lastFour(apiKey), updated_at: now }))
    .returning(['name', 'provider', 'last_four', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow()
  await db
    .updateTable('collection_target')
    .set({ flagged: false, flag_code: null, flag_reason: null, flagged_at: null, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('credential', '=', name)
    .where('flagged', '=', true)
    .execute()
  return row
}

export async function deleteCredential(db: DB, workspaceId: string, name: string): Promise<boolean> {
  const used = await db.selectFrom('collection_target').select('id').where('workspace_id', '=', workspaceId).where('credential', '=', name).executeTakeFirst()
  if (used)
    throw new AppError(400, 'invalid_parameter', `credential "${name}" is used by target ${used.id}; point the target at another credential (PATCH credential) first`, {
      param: 'name',
    })
  const deleted = await db.deleteFrom('collection_credential').where('workspace_id', '=', workspaceId).where('name', '=', name).executeTakeFirst()
  return Number(deleted.numDeletedRows) > 0
}

/** The key for a request: the target's stored credential, else the provider's environment variable, else none. */
export async function resolveApiKey(
  db: DB,
  workspaceId: string,
  target: { credential: string | null; provider: string | null; api: string | null; serp: string | null },
  keys: SecretKeys,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  if (target.api === 'demo') return undefined
  if (target.credential) {
    const row = await db.selectFrom('collection_credential').select('sealed').where('workspace_id', '=', workspaceId).where('name', '=', target.credential).executeTakeFirst()
    if (row) return SecretBox.fromKeys(keys).open(row.sealed, credentialContext(workspaceId, target.credential))
  }
  const variable = ENV_KEYS[target.api === 'openai_compatible' ? 'openai_compatible' : (target.serp ?? target.provider ?? '')]
  return variable ? env[variable]?.trim() || undefined : undefined
}
