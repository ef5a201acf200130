// Durable background jobs (docs/jobs.md): pg-boss 10 keeps the queue in the database (schema
// `pgboss` by default), so a queued job survives a restart and, on PostgreSQL, several
// instances share one queue and each job is fetched by exactly one of them (FOR UPDATE SKIP
// LOCKED). Beacon keeps its own record of each job (table `job`, workspace-scoped) with
// progress and result; GET /api/v1/jobs/{id} reads that.
//
// One job per workspace at a time: every queue uses pg-boss's `stately` policy with the
// workspace id as singleton key, i.e. at most one queued and one running job per workspace
// and type. An edit while a job is queued joins that job (it has not read the brands yet,
// so it will see the edit); an edit while one runs queues one more, which runs after it.
//
// Tasks are the other kind of queue: many small units of work per workspace (one collection
// answer, one webhook delivery attempt), each carrying its own data, retried by pg-boss with
// its queue's limits, optionally delayed (`startAfterSeconds`). They have no row in `job`
// and no progress; whatever they produce is their own record (a stored answer, a delivery).
// A task must be idempotent: after a crash it runs again.
import { createRequire } from 'node:module'
import PgBoss from 'pg-boss'
import { sql } from 'kysely'
import type { DB, DatabaseHandle } from '../db/database.js'
import { APP_ROLE, inTransaction, setScope } from '../db/tenant-scope.js'
import { UnavailableError } from '../core/errors.js'
import { kyselyExecutor, pgliteExecutor } from './pglite-adapter.js'
import { reconcileState, type BossState, type JobState } from './job-state.js'

/** A job a write just queued (or joined while it was still queued). */

/** Fetch loops of a task type that poll at the runtime's interval; the others are spares. */
const EAGER_LOOPS = 8
/** How often a spare loop polls when nothing woke it. */
const SPARE_POLL_SECONDS = 30

export interface JobRef {
  id: string
  state: 'queued'
}

/** What a handler gets: the job, a way to report progress, and a shutdown flag. */
export interface JobContext {
  readonly jobId: string
  readonly workspaceId: string
  readonly db: DB
  /** true once shutdown began: finish the batch in hand, then call `checkpoint()` */
  readonly stopping: boolean
  /** Records progress; throws JobInterrupted when the process is shutting down, so call it between batches. */
  checkpoint(done: number, total: number): Promise<void>
  /** Queues another job for this workspace (e.g. the data changed while this one ran). */
  enqueue(type: string): Promise<JobRef>
  /** Queues tasks (see TaskDefinition). */
  readonly tasks: TaskSender
}

export interface SendOptions {
  /** the caller's transaction: the task exists only once it commits */
  db?: DB
  /** not before this many seconds from now (a retry honouring Retry-After, a backoff) */
  startAfterSeconds?: number
  /** a fixed id (uuid) makes sending idempotent: a second send with the same id is ignored */
  id?: string
  /** at most one queued task per key and type */
  singletonKey?: string
}

export interface TaskSender {
  /** Queues one task; resolves to its id, or null when a task with that id or singleton key is already queued. */
  send(type: string, data: object, options?: SendOptions): Promise<string | null>
}

/** What a task's handler gets. */
export interface TaskContext<T> {
  readonly id: string
  readonly type: string
  readonly data: T
  readonly db: DB
  /** 0 on the first run, then 1, 2, … on pg-boss's retries */
  readonly retryCount: number
  readonly retryLimit: number
  /** true once shutdown began: stop early (throw) and the task runs again after the restart */
  readonly stopping: boolean
  readonly tasks: TaskSender
}

export interface TaskDefinition<T> {
  /** Throwing fails this attempt: pg-boss retries it up to retryLimit times. */
  handle(task: TaskContext<T>): Promise<void>
  /** default 3 */
  retryLimit?: number
  /** seconds before the first retry (default 5) */
  retryDelaySeconds?: number
  /** double the delay on each retry (default true) */
  retryBackoff?: boolean
  /** a running task older than this is presumed lost with its process and retried (default 15 min) */
  expireInSeconds?: number
  /** tasks of this type this process runs at once (default 1) */
  concurrency?: number
}

export type JobHandler = (context: JobContext) => Promise<Record<string, unknown>>

/** Thrown at a checkpoint during shutdown: the job goes back to the queue and runs again after the restart. */
export class JobInterrupted extends Error {
  constructor() {
    super('the process is shutting down; the job will run again')
    this.name = 'JobInterrupted'
  }
}

export interface JobView {
  id: string
  type: string
  state: JobState
  progress: { done: number; total: number }
  created_at: string
  started_at: string | null
  finished_at: string | null
  error: { code: string; message: string } | null
  result: unknown
}

export interface JobQueue {
  /** Queues (or joins the queued) job of this type for the workspace; `db` may be the caller's transaction. */
  enqueue(db: DB, workspaceId: string, type: string): Promise<JobRef | null>
}

export interface JobRuntimeOptions {
  database: DatabaseHandle
  /** pg-boss's schema */
  schema: string
  /** PostgreSQL: the server pg-boss connects to with its own small pool */
  connectionString?: string
  /** fetch and run jobs in this process (false: only queue them) */
  worker: boolean
  pollingIntervalSeconds: number
  /** a running job whose heartbeat is older than this is lost (default 60 s) */
  lostAfterSeconds?: number
  /** pg-boss maintenance interval: how soon an expired task of a dead process runs again (default 60 s) */
  maintenanceSeconds?: number
  handlers: Record<string, JobHandler>
  /** task queues by type (see TaskDefinition) */
  tasks?: Record<string, TaskDefinition<unknown>>
  log?: { error(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void }
}

// A job that runs longer than this is presumed lost (its process died) and retried.
const EXPIRE_SECONDS = 2 * 60 * 60
// Long before that, a running job whose heartbeat stopped is taken as lost: its process
// was killed. It is failed back to pg-boss, which retries it (re-analysis is idempotent).
const LOST_AFTER_SECONDS = 60
const RETRY_LIMIT = 3
const TASK_EXPIRE_SECONDS = 15 * 60

const FAILED_MESSAGE: Record<string, string> = {
  reanalysis: 'Re-analysis failed. Save the brand again to queue a new one, or run "beacon reanalyze --workspace <id>"; the server log has the cause.',
  discovery: 'Competitor discovery failed. Run POST /api/v1/brands/discover again to queue a new scan; the server log has the cause.',
}

export class JobRuntime implements JobQueue {
  readonly boss: PgBoss
  private stoppingFlag = false
  private stopped: Promise<void> | undefined
  private readonly afterStop: (() => Promise<void>)[] = []
  private recoveryTimer: NodeJS.Timeout | undefined

  /** Beats come six times, and checks for lost jobs twice, per this period. */
  private get lostAfterSeconds(): number {
    return this.options.lostAfterSeconds ?? LOST_AFTER_SECONDS
  }

  private constructor(private readonly options: JobRuntimeOptions) {
    const { database } = options
    const common = {
      schema: options.schema,
      migrate: true,
      // Maintenance (expiring jobs of crashed processes, archiving) runs where jobs run.
      supervise: options.worker,
      // No cron schedules: the timekeeper would only poll for nothing.
      schedule: false,
      expireInSeconds: EXPIRE_SECONDS,
      maintenanceIntervalSeconds: options.maintenanceSeconds ?? 60,
    }
    this.boss =
      database.backend === 'postgres'
        ? new PgBoss({ ...common, connectionString: options.connectionString, max: 3, application_name: 'beacon-jobs' })
        : new PgBoss({ ...common, db: pgliteExecutor(database.db, requirePglite(database)) })
    this.boss.on('error', (error: unknown) => options.log?.error({ err: error }, 'background jobs: pg-boss error'))
    tolerateUnawaitedCompletion(this.boss, options.schema, options.log)
  }

  static async start(options: JobRuntimeOptions): Promise<JobRuntime> {
    const runtime = new JobRuntime(options)
    await runtime.boss.start()
    for (const type of Object.keys(options.handlers)) {
      await runtime.boss.createQueue(type, { name: type, policy: 'stately', retryLimit: RETRY_LIMIT, retryDelay: 1, expireInSeconds: EXPIRE_SECONDS })
    }
    for (const [type, task] of Object.entries(options.tasks ?? {})) {
      const queue = {
        name: type,
        policy: 'standard' as const,
        retryLimit: task.retryLimit ?? RETRY_LIMIT,
        retryDelay: task.retryDelaySeconds ?? 5,
        retryBackoff: task.retryBackoff ?? true,
        expireInSeconds: task.expireInSeconds ?? TASK_EXPIRE_SECONDS,
      }
      // updateQueue: a changed definition applies to a queue an earlier version created.
      await runtime.boss.createQueue(type, queue)
      await runtime.boss.updateQueue(type, queue)
    }
    if (options.database.backend === 'postgres') await grantQueueToAppRole(options.database.db, options.schema)
    if (options.worker) {
      // Jobs of a killed process go back to the queue now, not after pg-boss's expiry.
      await runtime.recoverLostJobs({ onStart: true })
      runtime.recoveryTimer = setInterval(
        () => {
          runtime.recoverLostJobs().catch((error: unknown) => options.log?.warn({ err: error }, 'background jobs: could not check for lost jobs'))
        },
        (runtime.lostAfterSeconds * 1000) / 2,
      )
      runtime.recoveryTimer.unref()
      for (const type of Object.keys(options.handlers)) {
        await runtime.boss.work<{ workspaceId: string }>(type, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: options.pollingIntervalSeconds }, ([job]) =>
          runtime.run(type, job),
        )
      }
      for (const [type, task] of Object.entries(options.tasks ?? {})) {
        // pg-boss 10 runs one fetch loop per work() call: concurrency is that many loops. Each
        // idle loop polls, so past the first EAGER_LOOPS they are spares polling every
        // SPARE_POLL_SECONDS, woken (at most once per poll interval) when an eager loop finds
        // work: 80 collection loops polling every 2 s cost an idle PGlite instance 12% of a
        // core (npm run bench:collection), the spares' polling a tenth of that.
        const spares: string[] = []
        let lastWake = 0
        for (let i = 0; i < (task.concurrency ?? 1); i++) {
          const spare = i >= EAGER_LOOPS
          const pollingIntervalSeconds = spare ? Math.max(options.pollingIntervalSeconds, SPARE_POLL_SECONDS) : options.pollingIntervalSeconds
          const id = await runtime.boss.work<object>(type, { batchSize: 1, includeMetadata: true, pollingIntervalSeconds }, ([job]) => {
            if (!spare && spares.length && Date.now() - lastWake >= options.pollingIntervalSeconds * 1000) {
              lastWake = Date.now()
              for (const spareId of spares) runtime.boss.notifyWorker(spareId)
            }
            return runtime.runTask(type, task, job)
          })
          if (spare) spares.push(id)
        }
      }
      // Each loop fetched at once: on PGlite some ninety statements are queued on the one
      // connection (80 collection loops), and a request arriving now would wait behind all
      // of them (0.5-1 s on 2 busy cores, the first requests to `serve --demo`; issue 32
      // item 5). One statement queued after them: the server listens once they are done.
      if (options.database.backend === 'pglite') await sql`select 1`.execute(options.database.db)
    }
    return runtime
  }

  /** Queues a task; `options.db` keeps it inside the caller's transaction. */
  async send(type: string, data: object, options: SendOptions = {}): Promise<string | null> {
    if (!this.options.tasks || !(type in this.options.tasks)) throw new Error(`no task queue ${type}`)
    return this.boss.send(type, data, {
      ...(options.db ? { db: kyselyExecutor(options.db) } : {}),
      ...(options.startAfterSeconds && options.startAfterSeconds > 0 ? { startAfter: Math.ceil(options.startAfterSeconds) } : {}),
      ...(options.id ? { id: options.id } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    })
  }

  /** The sender handlers get (pg-boss's own pool, outside any transaction unless `db` is given). */
  get tasks(): TaskSender {
    return { send: (type, data, options) => this.send(type, data, options) }
  }

  private async runTask(type: string, task: TaskDefinition<unknown>, job: PgBoss.JobWithMetadata<object>): Promise<void> {
    const isStopping = () => this.stoppingFlag
    await task.handle({
      id: job.id,
      type,
      data: job.data,
      db: this.options.database.db,
      retryCount: job.retryCount,
      retryLimit: job.retryLimit,
      get stopping() {
        return isStopping()
      },
      tasks: this.tasks,
    })
  }

  get stopping(): boolean {
    return this.stoppingFlag
  }

  async enqueue(db: DB, workspaceId: string, type: string): Promise<JobRef> {
    if (!(type in this.options.handlers)) throw new Error(`no handler for job type ${type}`)
    // The job goes in through the caller's connection: inside a request's transaction it
    // appears only when the write that needs it commits, so it can never run before it.
    const executor = kyselyExecutor(db)
    for (let attempt = 0; attempt < 3; attempt++) {
      const id = await this.boss.send(type, { workspaceId }, { singletonKey: workspaceId, db: executor })
      if (id) {
        await db
          .insertInto('job')
          .values({ workspace_id: workspaceId, id, type })
          .onConflict((oc) => oc.columns(['workspace_id', 'id']).doNothing())
          .execute()
        return { id, state: 'queued' }
      }
      // A job of this type is already queued for the workspace: it has not started, so it
      // will see this change too. (If it started meanwhile, the next attempt queues anew.)
      const queued = await db
        .selectFrom('job')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('type', '=', type)
        .where('state', '=', 'queued')
        .orderBy('created_at', 'desc')
        .executeTakeFirst()
      if (queued) return { id: queued.id, state: 'queued' }
    }
    throw new UnavailableError('Could not queue the background job; retry the request in a few seconds')
  }

  /** The job as the API shows it, or undefined when it is not this workspace's. */
  async get(db: DB, workspaceId: string, id: string): Promise<JobView | undefined> {
    const row = await db.selectFrom('job').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()
    if (!row) return undefined
    let state = row.state
    if (state === 'queued' || state === 'running') {
      const boss = await this.boss.getJobById(row.type, id, { includeArchive: true }).catch(() => null)
      state = reconcileState(state, (boss?.state as BossState | undefined) ?? null)
    }
    const lost = state !== row.state && state === 'failed'
    return {
      id: row.id,
      type: row.type,
      state,
      progress: { done: row.progress_done, total: row.progress_total },
      created_at: row.created_at.toISOString(),
      started_at: row.started_at ? new Date(row.started_at).toISOString() : null,
      finished_at: row.finished_at ? new Date(row.finished_at).toISOString() : null,
      error: row.error_code
        ? { code: row.error_code, message: row.error_message ?? '' }
        : lost
          ? { code: 'job_lost', message: 'The job stopped without finishing (its process ended) and will not be retried; save the change again to queue a new one' }
          : null,
      result: row.result ?? null,
    }
  }

  /**
   * Fails, so that pg-boss retries them, the active jobs whose process is gone. On PGlite,
   * at start every active job is lost: the data directory's lock means no other process
   * can be running it. On PostgreSQL other instances may be, so a job counts as lost when
   * its heartbeat is older than lostAfterSeconds (JOBS_LOST_AFTER_SECONDS).
   */
  async recoverLostJobs(options: { onStart?: boolean } = {}): Promise<number> {
    const db = this.options.database.db
    const schema = sql.id(this.options.schema)
    const { rows: active } = await sql<{ id: string; name: string; workspace_id: string }>`
      select id::text as id, name, data->>'workspaceId' as workspace_id from ${schema}.job where state = 'active'`.execute(db)
    let lost = 0
    for (const job of active) {
      if (this.options.tasks && job.name in this.options.tasks) {
        // A task has no heartbeat: on PostgreSQL its queue's expiry returns it; on PGlite at
        // start nothing else can be running it.
        if (this.options.database.backend === 'pglite' && options.onStart) {
          await this.boss.fail(job.name, job.id, { reason: 'lost: its process stopped without finishing it' })
          lost += 1
        }
        continue
      }
      if (!(job.name in this.options.handlers) || !job.workspace_id) continue
      if (!(this.options.database.backend === 'pglite' && options.onStart)) {
        // Read under the job's workspace: the table has row-level security.
        const beat = await inTransaction(db, async (trx) => {
          await setScope(trx, 'app.workspace_id', job.workspace_id)
          const { rows } = await sql<{ stale: boolean }>`
            select coalesce(heartbeat_at, started_at, created_at) < now() - make_interval(secs => ${this.lostAfterSeconds}) as stale
            from job where workspace_id = ${job.workspace_id} and id = ${job.id}`.execute(trx)
          return rows[0]
        })
        if (!beat?.stale) continue
      }
      await this.boss.fail(job.name, job.id, { reason: 'lost: its process stopped without finishing it' })
      lost += 1
      const { rows: retried } = await sql<{ n: number }>`select count(*)::int as n from ${schema}.job where id = ${job.id} and state = 'retry'`.execute(db)
      if (retried[0].n > 0) {
        this.options.log?.warn({ jobId: job.id, type: job.name }, 'background job lost with its process; it runs again')
        continue
      }
      // Out of retries, or pg-boss dropped the retry because the workspace already has one
      // waiting (one job per state and workspace): the work goes on in another job, and
      // this one says which.
      const next = await this.enqueue(db, job.workspace_id, job.name)
      await inTransaction(db, async (trx) => {
        await setScope(trx, 'app.workspace_id', job.workspace_id)
        await trx
          .updateTable('job')
          .set({
            state: 'failed',
            finished_at: new Date(),
            error_code: 'job_lost',
            error_message: `The job's process stopped before it finished; job ${next.id} does the same work`,
            result: JSON.stringify({ continued_by: next.id }),
          })
          .where('workspace_id', '=', job.workspace_id)
          .where('id', '=', job.id)
          .execute()
      })
      this.options.log?.warn({ jobId: job.id, type: job.name, continuedBy: next.id }, 'background job lost with its process; its work continues in another job')
    }
    return lost
  }

  /** Runs one job: Beacon's row follows it from running to its end. */
  private async run(type: string, job: PgBoss.JobWithMetadata<{ workspaceId: string }>): Promise<Record<string, unknown>> {
    const handler = this.options.handlers[type]
    const { workspaceId } = job.data
    const db = this.options.database.db
    const now = new Date()
    // The row may not exist yet (the enqueuing request wrote it after pg-boss took the job on PGlite).
    await db
      .insertInto('job')
      .values({ workspace_id: workspaceId, id: job.id, type, state: 'running', started_at: now, heartbeat_at: now })
      .onConflict((oc) =>
        oc
          .columns(['workspace_id', 'id'])
          .doUpdateSet({ state: 'running', started_at: now, heartbeat_at: now, finished_at: null, error_code: null, error_message: null, progress_done: 0 }),
      )
      .execute()
    const heartbeat = setInterval(
      () => {
        db.updateTable('job')
          .set({ heartbeat_at: new Date() })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', job.id)
          .execute()
          .catch((error: unknown) => this.options.log?.warn({ err: error, jobId: job.id }, 'could not record the job heartbeat'))
      },
      (this.lostAfterSeconds * 1000) / 6,
    )
    heartbeat.unref()
    const isStopping = () => this.stoppingFlag
    const context: JobContext = {
      jobId: job.id,
      workspaceId,
      db,
      get stopping() {
        return isStopping()
      },
      checkpoint: async (done, total) => {
        await db
          .updateTable('job')
          .set({ progress_done: done, progress_total: total, heartbeat_at: new Date() })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', job.id)
          .execute()
        if (isStopping()) throw new JobInterrupted()
      },
      enqueue: (nextType) => this.enqueue(db, workspaceId, nextType),
      tasks: this.tasks,
    }
    try {
      const result = await handler(context)
      await db
        .updateTable('job')
        .set({ state: 'succeeded', finished_at: new Date(), result: JSON.stringify(result) })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', job.id)
        .execute()
      return result
    } catch (error) {
      const willRetry = job.retryCount < job.retryLimit
      if (!(error instanceof JobInterrupted)) this.options.log?.error({ err: error, jobId: job.id, type, workspaceId }, 'background job failed')
      await db
        .updateTable('job')
        .set(
          willRetry
            ? { state: 'queued', started_at: null }
            : {
                state: 'failed',
                finished_at: new Date(),
                error_code: error instanceof JobInterrupted ? 'job_interrupted' : 'job_failed',
                error_message: FAILED_MESSAGE[type] ?? 'The job failed; save the change again to queue a new one. The server log has the cause.',
              },
        )
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', job.id)
        .execute()
        .catch((updateError: unknown) => this.options.log?.warn({ err: updateError, jobId: job.id }, 'could not record the job failure'))
      throw error
    } finally {
      clearInterval(heartbeat)
    }
  }

  /**
   * Stops fetching, lets the running job finish its batch (its next checkpoint returns it to
   * the queue), then stops pg-boss. Waits at most `timeoutMs` for the batch.
   */
  stop(options: { timeoutMs?: number } = {}): Promise<void> {
    this.stoppingFlag = true
    clearInterval(this.recoveryTimer)
    // With wait: true pg-boss resolves after the running jobs ended (or the timeout passed,
    // when it marks them failed: they are retried) and its own pool closed.
    return (this.stopped ??= (async () => {
      await this.boss.stop({ graceful: true, wait: true, close: true, timeout: options.timeoutMs ?? 30_000 })
      for (const release of this.afterStop) await release()
    })())
  }

  /** Releases something the handlers used (a thread pool) once the runtime has stopped. */
  onStopped(release: () => Promise<void>): void {
    this.afterStop.push(release)
  }
}

// pg-boss's worker marks a job completed or failed without awaiting the statement, so with
// the database gone (an outage, a shutdown) the rejection would be unhandled and end the
// process. Those two statements, and only they, are made to report "no row changed"
// instead: the job stays active, and once the database is back the lost-job recovery
// sees its heartbeat stop and runs it again.
const pgBossPlans = createRequire(import.meta.url)('pg-boss/src/plans.js') as { completeJobs(schema: string): string; failJobsById(schema: string): string }

export function tolerateUnawaitedCompletion(boss: PgBoss, schema: string, log: JobRuntimeOptions['log']): void {
  const db = boss.getDb()
  const unawaited = new Set([pgBossPlans.completeJobs(schema), pgBossPlans.failJobsById(schema)])
  const execute = db.executeSql.bind(db)
  db.executeSql = async (text: string, values: unknown[]) => {
    try {
      return await execute(text, values)
    } catch (error) {
      if (!unawaited.has(text)) throw error
      log?.warn({ err: error }, 'background jobs: could not record a job as finished; it will run again once the database answers')
      return { rows: [{ count: '0' }] }
    }
  }
}

function requirePglite(database: DatabaseHandle) {
  if (!database.connection.pglite) throw new Error('PGlite backend without a PGlite instance')
  return database.connection.pglite
}

/**
 * Requests run as the unprivileged service role (row-level security) and queue jobs inside
 * their transaction, so that role may add jobs to pg-boss's tables (and nothing else there).
 */
async function grantQueueToAppRole(db: DB, schema: string): Promise<void> {
  await sql
    .raw(
      `do $$ begin
         if exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then
           execute 'grant usage on schema ${schema} to ${APP_ROLE}';
           execute 'grant select, insert on ${schema}.job, ${schema}.queue to ${APP_ROLE}';
         end if;
       exception when insufficient_privilege then
         raise notice 'not allowed to grant ${schema} to ${APP_ROLE}';
       end $$`,
    )
    .execute(db)
}
