// Provider API keys stored per workspace (docs/collection.md): sealed with AES-256-GCM under
// BEACON_SECRET_KEY, the context binding each one to its workspace and name (a sealed value
// copied to another row does not open). Never returned: lists show the name and last 4.
import type { DB } from '../db/database.js'
import { AppError } from '../core/errors.js'
import { SecretBox, SecretKeyError, lastFour, type SecretKeys } from '../security/secret-box.js'
import { ProviderError } from './adapters/types.js'

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

/** What a key is resolved for: the target's fields that decide which provider's key it may be sent. */
export interface KeyTarget {
  credential: string | null
  kind?: 'answer' | 'aio'
  provider: string | null
  api: string | null
  serp: string | null
  base_url?: string | null
}

/**
 * The provider whose credentials this target may use (docs/collection.md, "Outbound requests"):
 * openai_compatible targets only openai_compatible credentials (their base_url is the user's), an
 * AI-overview target its SERP API's, any other target its own provider's. Undefined for demo.
 */
export function credentialProviderFor(target: Omit<KeyTarget, 'credential' | 'base_url'>): string | undefined {
  if (target.api === 'demo') return undefined
  if (target.api === 'openai_compatible') return 'openai_compatible'
  if (target.kind === 'aio' || (target.serp && !target.provider)) return target.serp ?? undefined
  return target.provider ?? undefined
}

/** Describes the target for messages: "an openai_compatible target", "an openai target". */
function describeTarget(expected: string): string {
  return `${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected} target`
}

/** The message when a credential is attached to a target of another provider: what to do. */
export function credentialMismatchMessage(name: string, storedFor: string, expected: string): string {
  return (
    `credential "${name}" is stored for provider "${storedFor}"; ${describeTarget(expected)} can only use a credential stored for "${expected}" ` +
    `(a key is only sent to its own provider). Store one with PUT /api/v1/collection/credentials/{name} {"provider": "${expected}", "api_key": "…"} ` +
    `and set the target's credential to that name, or set credential to null`
  )
}

/** OPENAI_COMPATIBLE_ALLOWED_HOSTS: whether the operator lets the environment key go to this base_url's host. */
export function envKeyAllowedFor(baseUrl: string | null | undefined, allowedHosts: readonly string[]): boolean {
  if (!baseUrl || allowedHosts.length === 0) return false
  let host: string
  try {
    host = new URL(baseUrl).hostname
  } catch {
    return false
  }
  const bare = (name: string) =>
    name
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
  return allowedHosts.some((allowed) => bare(allowed) === bare(host))
}

export interface KeySettings extends SecretKeys {
  /** OPENAI_COMPATIBLE_ALLOWED_HOSTS (config.ts); none when absent */
  openaiCompatibleAllowedHosts?: readonly string[]
}

/**
 * The key for a request: the target's stored credential, else the provider's environment
 * variable, else none. A stored credential of another provider is refused (ProviderError
 * `forbidden`, which flags the target); the environment's openai_compatible key goes only to
 * hosts listed in OPENAI_COMPATIBLE_ALLOWED_HOSTS, never to a tenant's own base_url.
 */
export async function resolveApiKey(db: DB, workspaceId: string, target: KeyTarget, settings: KeySettings, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  if (target.api === 'demo') return undefined
  const expected = credentialProviderFor(target)
  if (target.credential) {
    const row = await db
      .selectFrom('collection_credential')
      .select(['sealed', 'provider'])
      .where('workspace_id', '=', workspaceId)
      .where('name', '=', target.credential)
      .executeTakeFirst()
    if (row) {
      if (row.provider !== expected) throw new ProviderError('forbidden', credentialMismatchMessage(target.credential, row.provider, expected ?? 'unknown'))
      return SecretBox.fromKeys(settings).open(row.sealed, credentialContext(workspaceId, target.credential))
    }
  }
  if (target.api === 'openai_compatible' && !envKeyAllowedFor(target.base_url, settings.openaiCompatibleAllowedHosts ?? [])) return undefined
  const variable = ENV_KEYS[expected ?? '']
  return variable ? env[variable]?.trim() || undefined : undefined
}
