// Durability of the job runtime itself, below the API: a queued job survives a restart,
// shutdown lets the running batch finish and returns the job to the queue, and two
// instances on one PostgreSQL run each job exactly once.
import { afterAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../src/db/database.js'
import { createWorkspace } from '../../src/admin/workspaces.js'
import { JobRuntime, type JobHandler } from '../../src/jobs/job-runtime.js'
import { testBackends } from '../helpers/test-app.js'
import { reopenableDatabase } from '../helpers/reopenable-database.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function start(database: DatabaseHandle, jobsSchema: string, worker: boolean, handlers: Record<string, JobHandler>) {
  return JobRuntime.start({ database, schema: jobsSchema, connectionString: process.env.TEST_DATABASE_URL, worker, pollingIntervalSeconds: 1, handlers })
}

async function jobRow(database: DatabaseHandle, id: string) {
  return database.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await fn()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

describe.each(testBackends)('job runtime durability (%s)', (backend) => {
  const cleanups: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup()
  })

  it('shutdown lets the running batch finish, returns the job to the queue, and it completes after a restart', async () => {
    const store = reopenableDatabase(backend)
    cleanups.push(store.cleanup)
    const events: string[] = []
    const BATCHES = 5
    const slow: JobHandler = async (job) => {
      for (let batch = 0; batch < BATCHES; batch++) {
        events.push(`start ${batch}`)
        await sleep(400)
        events.push(`end ${batch}`)
        await job.checkpoint(batch + 1, BATCHES)
      }
      return { batches: BATCHES }
    }

    // First process: queue the job, start working, then shut down mid-job.
    let database = await store.open()
    const workspace = await createWorkspace(database.db, { name: 'Durable', tier: 'premium' })
    let runtime = await start(database, store.jobsSchema, true, { slow_batches: slow })
    const { id } = await runtime.enqueue(database.db, workspace.id, 'slow_batches')
    await until('the first batch', async () => events.includes('start 0'))
    await runtime.stop({ timeoutMs: 10_000 })
    events.push('stopped')
    // The batch in hand finished before stop returned; no batch started after it.
    const stoppedAt = events.indexOf('stopped')
    const started = events.filter((e) => e.startsWith('start')).length
    expect(events.filter((e) => e.startsWith('end')).length).toBe(started)
    expect(events[stoppedAt - 1]).toMatch(/^end /)
    expect(started).toBeLessThan(BATCHES)
    const interrupted = await jobRow(database, id)
    expect(interrupted.state).toBe('queued')
    expect(interrupted.progress_done).toBe(started)
    await database.close()

    // Second process on the same database: the job runs again, to the end.
    events.length = 0
    database = await store.open()
    runtime = await start(database, store.jobsSchema, true, { slow_batches: slow })
    try {
      const done = await until('the job to succeed', async () => {
        const row = await jobRow(database, id)
        return row.state === 'succeeded' && row
      })
      expect(done).toMatchObject({ progress_done: BATCHES, progress_total: BATCHES, result: { batches: BATCHES }, error_code: null })
      expect(events.filter((e) => e.startsWith('end')).length).toBe(BATCHES)
    } finally {
      await runtime.stop()
      await database.close()
    }
  }, 120_000)

  it('a job whose process was killed mid-run is taken as lost and run again, not left for the expiry', async () => {
    const store = reopenableDatabase(backend)
    cleanups.push(store.cleanup)
    let runs = 0
    const handler: JobHandler = async () => {
      runs += 1
      return { ok: true }
    }
    // The killed process: it took the job (active in pg-boss, running in Beacon's row) and
    // stopped beating a while ago.
    let database = await store.open()
    const workspace = await createWorkspace(database.db, { name: 'Killed', tier: 'premium' })
    const queueOnly = await start(database, store.jobsSchema, false, { lost_work: handler })
    const lost = await queueOnly.enqueue(database.db, workspace.id, 'lost_work')
    const fresh = await queueOnly.enqueue(database.db, (await createWorkspace(database.db, { name: 'Alive', tier: 'premium' })).id, 'lost_work')
    const taken = await queueOnly.boss.fetch('lost_work', { batchSize: 2 })
    expect(taken.map((j) => j.id).sort()).toEqual([lost.id, fresh.id].sort())
    const longAgo = new Date(Date.now() - 10 * 60_000)
    await database.db.updateTable('job').set({ state: 'running', started_at: longAgo, heartbeat_at: longAgo }).where('id', '=', lost.id).execute()
    // The other one is still beating (on PostgreSQL another instance could be running it).
    await database.db.updateTable('job').set({ state: 'running', started_at: new Date(), heartbeat_at: new Date() }).where('id', '=', fresh.id).execute()
    await queueOnly.stop()
    await database.close()

    database = await store.open()
    const worker = await start(database, store.jobsSchema, true, { lost_work: handler })
    try {
      const done = await until('the lost job to run again', async () => {
        const row = await jobRow(database, lost.id)
        return row.state === 'succeeded' && row
      })
      expect(done.error_code).toBeNull()
      if (backend === 'pglite') {
        // One process per data directory: every job active at start belonged to a dead one.
        await until('the other job too', async () => (await jobRow(database, fresh.id)).state === 'succeeded')
        expect(runs).toBe(2)
      } else {
        // Its heartbeat is recent: left alone.
        await sleep(2500)
        expect((await jobRow(database, fresh.id)).state).toBe('running')
        expect(runs).toBe(1)
      }
    } finally {
      await worker.stop()
      await database.close()
    }
  }, 120_000)

  it('a job queued while no worker runs is done by the next process that starts one', async () => {
    const store = reopenableDatabase(backend)
    cleanups.push(store.cleanup)
    const ran: string[] = []
    const handler: JobHandler = async (job) => {
      ran.push(job.workspaceId)
      return { ok: true }
    }
    let database = await store.open()
    const workspace = await createWorkspace(database.db, { name: 'Later', tier: 'basic' })
    const queueOnly = await start(database, store.jobsSchema, false, { later: handler })
    const { id } = await queueOnly.enqueue(database.db, workspace.id, 'later')
    await sleep(1500)
    expect(ran).toEqual([])
    await queueOnly.stop()
    await database.close()

    database = await store.open()
    const worker = await start(database, store.jobsSchema, true, { later: handler })
    try {
      await until('the job to succeed', async () => (await jobRow(database, id)).state === 'succeeded')
      expect(ran).toEqual([workspace.id])
    } finally {
      await worker.stop()
      await database.close()
    }
  }, 120_000)

  it.runIf(backend === 'postgres')(
    'two instances on one PostgreSQL run each of N jobs exactly once',
    async () => {
      const store = reopenableDatabase(backend)
      cleanups.push(store.cleanup)
      const N = 12
      const handled: { jobId: string; instance: string }[] = []
      const handler =
        (instance: string): JobHandler =>
        async (job) => {
          handled.push({ jobId: job.jobId, instance })
          await sleep(100)
          return { instance }
        }
      const a = await store.open()
      const b = await store.open()
      const workerA = await start(a, store.jobsSchema, true, { counted: handler('a') })
      const workerB = await start(b, store.jobsSchema, true, { counted: handler('b') })
      try {
        // One job per workspace (the queue allows one queued job per workspace and type).
        const ids: string[] = []
        for (let i = 0; i < N; i++) {
          const workspace = await createWorkspace(a.db, { name: `Tenant ${i}`, tier: 'basic' })
          ids.push((await workerA.enqueue(a.db, workspace.id, 'counted')).id)
        }
        await until(
          'every job to succeed',
          async () => (await a.db.selectFrom('job').select('state').where('id', 'in', ids).execute()).filter((r) => r.state === 'succeeded').length === N,
          60_000,
        )
        await sleep(1500) // a duplicate run would show up by now
        expect(handled.map((h) => h.jobId).sort()).toEqual([...ids].sort())
        expect(new Set(handled.map((h) => h.instance)).size).toBe(2)
      } finally {
        await workerA.stop()
        await workerB.stop()
        await a.close()
        await b.close()
      }
    },
    120_000,
  )
})
