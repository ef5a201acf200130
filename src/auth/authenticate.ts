// One onRequest hook for the whole /api/v1 subtree. It identifies the key, then checks
// what the matched route declares in `config.access` (default: read:analytics).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sql, type Selectable } from 'kysely'
import type { DB } from '../db/database.js'
import type { ApiKeyTable, WorkspaceTable } from '../db/schema.js'
import { AppError } from '../core/errors.js'
import { hashApiKey, isWellFormedApiKey } from './api-keys.js'
import { APP_ROLE, NO_PARALLEL_WORKERS, beginScoped, type ScopedTransaction } from '../db/tenant-scope.js'
import { prepared } from '../db/prepared-statements.js'
import { DEFAULT_ACCESS, type AccessRequirement, type Scope, type Tier } from './scopes.js'
import type { AuthFailureLimiter } from './auth-failure-limiter.js'

export interface AuthContext {
  workspaceId: string
  keyId: string
  scopes: Scope[]
  tier: Tier
  /** bumped by every write to the workspace's analytics; response caches key on it */
  dataVersion: number
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext
    /** this request's database access: on PostgreSQL a transaction scoped to the workspace (row-level security) */
    db: DB
    /** set while the request holds its own transaction */
    scopedTransaction?: ScopedTransaction
  }
  interface FastifyContextConfig {
    access?: AccessRequirement
  }
}

const LAST_USED_RESOLUTION_MS = 5 * 60 * 1000

function unauthorized(message: string): AppError {
  return new AppError(401, 'invalid_api_key', message, { headers: { 'WWW-Authenticate': 'Bearer realm="beacon"' } })
}

export function extractBearerToken(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw unauthorized('Missing API key: send the header "Authorization: Bearer <API_KEY>"')
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header)
  if (!match) throw unauthorized('The Authorization header must be "Bearer <API_KEY>"')
  return match[1]
}

export interface AuthOptions {
  /** PostgreSQL: run each request in a workspace-scoped transaction (row-level security) */
  scoped: boolean
  /** switch to the unprivileged service role inside that transaction */
  useRole: boolean
  /**
   * The connecting role bypasses row-level security, so the key lookup may run before the
   * scope is set and set it (key hash, workspace, role) in the same statement: one round
   * trip fewer per request. Otherwise the key hash is set first, for the lookup's policy.
   */
  lookupFirst?: boolean
}

/** What the key lookup selects, typed by the schema as the query builder typed it. */
type KeyRow = Pick<Selectable<ApiKeyTable>, 'id' | 'workspace_id' | 'scopes' | 'expires_at' | 'revoked_at' | 'last_used_at'> &
  Pick<Selectable<WorkspaceTable>, 'tier' | 'data_version'>

/** The bearer token as sent, or undefined: what the failure limiter recognises a key by. */
function bearerOrUndefined(header: string | undefined): string | undefined {
  try {
    return extractBearerToken(header)
  } catch {
    return undefined
  }
}

/**
 * The hook identifying a request's key. With `failures`, requests without a valid key are
 * limited per client address before anything is hashed or looked up (auth-failure-limiter.ts).
 */
export function createAuthHook(shared: DB, options: AuthOptions, failures?: AuthFailureLimiter) {
  const identify = identifyKey(shared, options)
  if (!failures) return identify
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = bearerOrUndefined(request.headers.authorization)
    failures.check(request.ip, token)
    try {
      await identify(request, reply)
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 401) await failures.failed(request.ip, token)
      throw error
    }
    if (token !== undefined) failures.succeeded(token)
  }
}

function identifyKey(shared: DB, options: AuthOptions) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const key = extractBearerToken(request.headers.authorization)
    // Garbage and typos stop here, before any query.
    if (!isWellFormedApiKey(key)) throw unauthorized('The API key is not a valid Beacon key (bvk_…); check that it was copied whole')
    const keyHash = hashApiKey(key)

    let db: DB = shared
    const lookupFirst = options.scoped && options.lookupFirst === true
    if (options.scoped) {
      // Under row-level security the key row, and its workspace, are visible only by the
      // hash being looked up (unless the lookup runs first, past row-level security).
      const trx = lookupFirst ? await beginScoped(shared, { useRole: false }) : await beginScoped(shared, { useRole: options.useRole, keyHash })
      request.scopedTransaction = trx
      db = trx
    }
    request.db = db

    // Lookup is by SHA-256 hash through a unique index: no secret string is compared in
    // application code, so response timing says nothing about how much of a key matched.
    // The same statement names the workspace for the rest of the transaction: one round
    // trip authenticates and scopes the request (a cached answer needs nothing more). The
    // settings are evaluated for the one matching row only; an unknown key sets nothing,
    // and its transaction is rolled back with the 401.
    const scopeSettings = !options.scoped
      ? sql``
      : lookupFirst
        ? sql`, set_config('app.key_hash', k.key_hash, true) as key_scope, set_config('app.workspace_id', k.workspace_id::text, true) as scope, ${NO_PARALLEL_WORKERS} as parallel
            ${options.useRole ? sql`, set_config('role', ${APP_ROLE}, true) as role` : sql``}`
        : sql`, set_config('app.workspace_id', k.workspace_id::text, true) as scope`
    const { rows } = await prepared(
      sql<KeyRow>`select k.id, k.workspace_id, k.scopes, k.expires_at, k.revoked_at, k.last_used_at, w.tier, w.data_version ${scopeSettings}
        from api_key k join workspace w on w.id = k.workspace_id
        where k.key_hash = ${keyHash}`,
    ).execute(db)
    const row = rows[0]
    const now = new Date()
    if (!row) throw unauthorized('Unknown API key')
    if (row.revoked_at) throw unauthorized('This API key has been revoked; create a new one')
    if (row.expires_at && row.expires_at <= now) throw unauthorized('This API key has expired; create a new one')

    request.auth = { workspaceId: row.workspace_id, keyId: row.id, scopes: row.scopes as Scope[], tier: row.tier, dataVersion: Number(row.data_version) }

    const access = request.routeOptions.config.access ?? DEFAULT_ACCESS
    for (const scope of access.scopes) {
      if (!request.auth.scopes.includes(scope)) {
        throw new AppError(403, 'insufficient_scope', `This API key lacks the scope "${scope}" that this endpoint requires`, { param: undefined })
      }
    }
    if (access.tier === 'premium' && row.tier !== 'premium') {
      throw new AppError(403, 'plan_required', 'This endpoint needs a Premium workspace; upgrade the workspace tier to use it')
    }

    if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
      // Throttled so a busy key costs one write per five minutes, not one per request.
      // Outside the request's transaction: a failed request must not undo it, and the
      // shared handle needs no scope for a row it names by primary key and hash.
      shared
        .updateTable('api_key')
        .set({ last_used_at: now })
        .where('workspace_id', '=', row.workspace_id)
        .where('id', '=', row.id)
        .execute()
        .catch((error) => request.log.warn({ err: error }, 'could not record key last use'))
    }
  }
}

/**
 * Ends the request's transaction: committed before a successful answer is sent (so a
 * 200 means stored), rolled back on errors and aborted requests.
 */
export async function finishScopedTransaction(request: FastifyRequest, commit: boolean): Promise<void> {
  const trx = request.scopedTransaction
  if (!trx) return
  request.scopedTransaction = undefined
  if (!commit) {
    await trx
      .rollback()
      .execute()
      .catch(() => {})
    return
  }
  try {
    await trx.commit().execute()
  } catch (error) {
    // Kysely releases the connection on rollback, even a failed one, but not when a commit
    // fails (the database went away mid-request): roll back so the pool gets it back.
    await trx
      .rollback()
      .execute()
      .catch(() => {})
    throw error
  }
}
