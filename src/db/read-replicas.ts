// Read replicas (DATABASE_READ_URLS): PostgreSQL streaming replicas of the primary, for
// analytics reads and exports (docs/architecture.md). A request may read on a replica
// only when the replica has replayed everything the request must see: every write bumps
// its workspace's data_version in the writing transaction, the request read that version
// from the primary when it authenticated, and the replica shows it the same version or a
// later one. Writes to one workspace serialize on that row, so a replica whose snapshot
// holds version N holds every write of that workspace up to N. A replica that is behind
// (lagging, replay paused), unreachable or failing is skipped and the primary answers:
// never a stale answer, never an error because of a replica.
//
// Row-level security holds on a replica as on the primary: the same role switch and
// workspace setting open every transaction there (src/db/tenant-scope.ts), and a replica
// whose connecting role could not make the switch the primary makes is never used.
import { Kysely, sql } from 'kysely'
import type pg from 'pg'
import { connect, type Connection } from './dialect.js'
import type { DB } from './database.js'
import type { Database } from './schema.js'
import { APP_ROLE, NO_PARALLEL_WORKERS, rollbackQuietly, type ScopedTransaction } from './tenant-scope.js'
import { prepared } from './prepared-statements.js'

// A replica that failed is left alone this long before a request tries it again.
const RETRY_AFTER_MS = 5_000
// A replica that does not accept a connection quickly is treated as down: the primary is
// right there.
const CONNECT_TIMEOUT_MS = 1_000

/** The replica has not replayed the workspace's data version the request must see. */
export class ReplicaBehindError extends Error {
  constructor(
    readonly seen: number | undefined,
    readonly required: number,
  ) {
    super(`replica is at data version ${seen ?? 'none'}, the request needs ${required}`)
    this.name = 'ReplicaBehindError'
  }
}

interface Access {
  /** the connecting role reads past row-level security (superuser or BYPASSRLS) */
  bypasses: boolean
  /** it may switch to the service role */
  canUseRole: boolean
}

export class Replica {
  downUntil = 0
  private access: Promise<Access> | undefined

  constructor(
    readonly label: string,
    readonly connection: Connection,
    readonly db: DB,
  ) {}

  get pool(): pg.Pool {
    return this.connection.pool!
  }

  /** What the connecting role may do, asked once per healthy spell. */
  rights(): Promise<Access> {
    this.access ??= sql<Access>`
      select r.rolsuper or r.rolbypassrls as bypasses,
        exists (select 1 from pg_roles where rolname = ${APP_ROLE}) and pg_has_role(current_user, ${APP_ROLE}, 'MEMBER') as "canUseRole"
      from pg_roles r where r.rolname = current_user`
      .execute(this.db)
      .then(({ rows }) => rows[0] ?? { bypasses: false, canUseRole: false })
    return this.access
  }

  markUnavailable(): void {
    this.downUntil = Date.now() + RETRY_AFTER_MS
    this.access = undefined
  }
}

export interface ReadCounts {
  /** requests and exports served by a replica */
  replica: number
  /** ... sent to the primary because no replica had the version they needed */
  behind: number
  /** replica attempts that failed (connection refused, terminated, cancelled) */
  failed: number
}

export class ReadReplicas {
  readonly counts: ReadCounts = { replica: 0, behind: 0, failed: 0 }
  private turn = 0

  private constructor(
    readonly replicas: Replica[],
    /** whether request transactions switch to the service role (the primary's decision) */
    readonly useRole: boolean,
  ) {}

  static async open(urls: readonly string[], options: { poolSize: number; searchPath?: string; useRole: boolean }): Promise<ReadReplicas> {
    const replicas = await Promise.all(
      urls.map(async (url) => {
        const connection = await connect({ databaseUrl: url, dataDir: '', poolSize: options.poolSize, searchPath: options.searchPath, connectTimeoutMs: CONNECT_TIMEOUT_MS })
        return new Replica(url.replace(/\/\/[^@/]*@/, '//'), connection, new Kysely<Database>({ dialect: connection.dialect }))
      }),
    )
    return new ReadReplicas(replicas, options.useRole)
  }

  /** Replicas not known to be down, starting with the next one in turn. */
  candidates(): Replica[] {
    const now = Date.now()
    const start = this.turn++ % Math.max(1, this.replicas.length)
    return [...this.replicas.slice(start), ...this.replicas.slice(0, start)].filter((replica) => replica.downUntil <= now)
  }

  /**
   * The result of `attempt` on the first replica where it succeeds, or undefined when none
   * does (the caller uses the primary). A replica that throws ReplicaBehindError is skipped
   * for this request only; any other failure marks it down for a few seconds.
   */
  async firstUsable<T>(attempt: (replica: Replica, role: string | undefined) => Promise<T>): Promise<T | undefined> {
    for (const replica of this.candidates()) {
      try {
        const rights = await replica.rights()
        // Never read without the row-level security the primary's requests have.
        if (this.useRole && !rights.canUseRole) {
          replica.markUnavailable()
          continue
        }
        const result = await attempt(replica, this.useRole ? APP_ROLE : undefined)
        this.counts.replica++
        return result
      } catch (error) {
        if (error instanceof ReplicaBehindError) {
          this.counts.behind++
        } else {
          this.counts.failed++
          replica.markUnavailable()
        }
      }
    }
    return undefined
  }

  /**
   * A read-only transaction on a replica that has replayed `minVersion` of the workspace,
   * scoped like a request transaction; undefined when no replica has it.
   */
  beginRead(workspaceId: string, minVersion: number): Promise<{ trx: ScopedTransaction; replica: Replica } | undefined> {
    return this.firstUsable(async (replica, role) => {
      const rights = await replica.rights()
      const trx = await replica.db.startTransaction().setAccessMode('read only').execute()
      try {
        let version: number | undefined
        // As on the primary (tenant-scope.ts), a request's reads run without parallel workers.
        const requestSettings = sql`, ${NO_PARALLEL_WORKERS} as parallel ${role ? sql`, set_config('role', ${role}, true) as role` : sql``}`
        if (rights.bypasses) {
          // One round trip: the version is read before the role switch takes effect.
          const { rows } = await prepared(
            sql<{
              data_version: number
            }>`select w.data_version, set_config('app.workspace_id', w.id::text, true) as scope ${requestSettings} from workspace w where w.id = ${workspaceId}`,
          ).execute(trx)
          version = rows[0] === undefined ? undefined : Number(rows[0].data_version)
        } else {
          await sql`select set_config('app.workspace_id', ${workspaceId}, true) as scope ${requestSettings}`.execute(trx)
          version = await dataVersionOn(trx, workspaceId)
        }
        if (version === undefined || version < minVersion) throw new ReplicaBehindError(version, minVersion)
        return { trx, replica }
      } catch (error) {
        await rollbackQuietly(trx)
        throw error
      }
    })
  }

  async close(): Promise<void> {
    await Promise.all(this.replicas.map((replica) => replica.db.destroy().catch(() => {})))
  }
}

async function dataVersionOn(db: DB, workspaceId: string): Promise<number | undefined> {
  const { rows } = await sql<{ data_version: number }>`select data_version from workspace where id = ${workspaceId}`.execute(db)
  return rows[0] === undefined ? undefined : Number(rows[0].data_version)
}

/**
 * For a pg client already scoped to the workspace (an export's COPY transaction): throws
 * ReplicaBehindError unless its snapshot holds `minVersion`.
 */
export async function requireDataVersion(client: pg.PoolClient, workspaceId: string, minVersion: number): Promise<void> {
  const { rows } = await client.query<{ data_version: string | number }>('select data_version from workspace where id = $1', [workspaceId])
  const version = rows[0] === undefined ? undefined : Number(rows[0].data_version)
  if (version === undefined || version < minVersion) throw new ReplicaBehindError(version, minVersion)
}
