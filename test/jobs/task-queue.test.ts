// Task queues of the job runtime: many small units of work with their own data, run
// concurrently, retried on failure, optionally delayed, queued inside a caller's
// transaction, sent idempotently by id, and run again after a crash (PGlite restart).
import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { DatabaseHandle } from '../../src/db/database.js'
import { JobRuntime, type TaskDefinition } from '../../src/jobs/job-runtime.js'
import { testBackends } from '../helpers/test-app.js'
import { reopenableDatabase } from '../helpers/reopenable-database.js'
import { eventually, sleep } from '../helpers/wait.js'

const start = (database: DatabaseHandle, schema: string, tasks: Record<string, TaskDefinition<unknown>>, worker = true) =>
  JobRuntime.start({ database, schema, connectionString: process.env.TEST_DATABASE_URL, worker, pollingIntervalSeconds: 1, handlers: {}, tasks })

describe.each(testBackends)('task queues (%s)', (backend) => {
  const cleanups: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup()
  })

  it('runs every task once with its own data, several at a time, and retries a failing one until it succeeds', async () => {
    const store = reopenableDatabase(backend, 'beacon-tasks-')
    cleanups.push(store.cleanup)
    const database = await store.open()
    const seen: number[] = []
    let running = 0
    let maxRunning = 0
    const attempts = new Map<number, number>()
    const echo: TaskDefinition<{ n: number }> = {
      concurrency: 3,
      retryLimit: 2,
      retryDelaySeconds: 1,
      retryBackoff: false,
      async handle(task) {
        running += 1
        maxRunning = Math.max(maxRunning, running)
        try {
          await sleep(100)
          const tries = (attempts.get(task.data.n) ?? 0) + 1
          attempts.set(task.data.n, tries)
          // Task 7 fails on its first attempt: the retry must run it again.
          if (task.data.n === 7 && task.retryCount === 0) throw new Error('first attempt fails')
          seen.push(task.data.n)
        } finally {
          running -= 1
        }
      },
    }
    const runtime = await start(database, store.jobsSchema, { echo })
    try {
      for (let n = 0; n < 12; n++) await runtime.send('echo', { n })
      await eventually(() => seen.length === 12, 30_000)
      await sleep(300)
      expect([...seen].sort((a, b) => a - b)).toEqual([...Array(12).keys()])
      expect(attempts.get(7)).toBe(2)
      expect(maxRunning).toBeGreaterThan(1)
      expect(maxRunning).toBeLessThanOrEqual(3)
    } finally {
      await runtime.stop()
      await database.close()
    }
  })

  it('past 8 loops the spares (polling every 30 s when idle) are woken by work, so all of a task type’s concurrency runs at once', async () => {
    const store = reopenableDatabase(backend, 'beacon-tasks-')
    cleanups.push(store.cleanup)
    const database = await store.open()
    let running = 0
    let maxRunning = 0
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const wide: TaskDefinition<{ n: number }> = {
      concurrency: 14,
      async handle() {
        running += 1
        maxRunning = Math.max(maxRunning, running)
        // Held until all 14 run together (or the check below gives up).
        if (running === 14) release()
        await Promise.race([gate, sleep(20_000)])
        running -= 1
      },
    }
    const runtime = await start(database, store.jobsSchema, { wide })
    try {
      // Idle long enough that every spare is in its 30 s sleep, not in its first fetch.
      await sleep(2_500)
      for (let n = 0; n < 14; n++) await runtime.send('wide', { n })
      // Without the wake-up the 6 spares would join only at their next 30 s poll.
      await eventually(() => maxRunning === 14, 15_000)
      expect(maxRunning).toBe(14)
    } finally {
      release()
      await runtime.stop()
      await database.close()
    }
  })

  it('a delayed task waits, a task sent in a rolled-back transaction never exists, and a repeated id is sent once', async () => {
    const store = reopenableDatabase(backend, 'beacon-tasks-')
    cleanups.push(store.cleanup)
    const database = await store.open()
    const ran: { label: string; at: number }[] = []
    const mark: TaskDefinition<{ label: string }> = {
      async handle(task) {
        ran.push({ label: task.data.label, at: Date.now() })
      },
    }
    const runtime = await start(database, store.jobsSchema, { mark })
    try {
      const sentAt = Date.now()
      await runtime.send('mark', { label: 'delayed' }, { startAfterSeconds: 3 })
      await database.db
        .transaction()
        .execute(async (trx) => {
          await runtime.send('mark', { label: 'rolled back' }, { db: trx })
          throw new Error('roll back')
        })
        .catch(() => undefined)
      const id = randomUUID()
      expect(await runtime.send('mark', { label: 'once' }, { id })).toBe(id)
      expect(await runtime.send('mark', { label: 'once' }, { id })).toBeNull()
      await eventually(() => ran.some((r) => r.label === 'delayed'), 30_000)
      await sleep(1500)
      const delayed = ran.find((r) => r.label === 'delayed')
      expect(delayed && delayed.at - sentAt).toBeGreaterThanOrEqual(2500)
      expect(ran.map((r) => r.label).sort()).toEqual(['delayed', 'once'])
    } finally {
      await runtime.stop()
      await database.close()
    }
  })

  it.runIf(backend === 'pglite')('on PGlite, start resolves once its loops have fetched: a request then waits behind none of their statements', async () => {
    const store = reopenableDatabase(backend, 'beacon-tasks-')
    cleanups.push(store.cleanup)
    const database = await store.open()
    // Every statement run on the one connection, in order.
    const pglite = database.connection.pglite!
    const run = pglite.query.bind(pglite)
    const statements: string[] = []
    pglite.query = ((text: string, ...rest: unknown[]) => {
      statements.push(text)
      return run(text, ...(rest as []))
    }) as typeof pglite.query
    const idle: TaskDefinition<object> = { concurrency: 20, async handle() {} }
    const runtime = await start(database, store.jobsSchema, { idle })
    try {
      const before = statements.length
      // What a request arriving now runs (the loops poll again only after their 1 s interval).
      await sql`select 1 as request`.execute(database.db)
      const ranFirst = statements.slice(
        before,
        statements.findIndex((text, i) => i >= before && text.includes('as request')),
      )
      expect(ranFirst.filter((text) => text.includes(`${store.jobsSchema}.job`))).toEqual([])
    } finally {
      await runtime.stop()
      await database.close()
    }
  })

  it.runIf(backend === 'pglite')('a task whose process died runs again after the restart', async () => {
    const store = reopenableDatabase(backend, 'beacon-tasks-')
    cleanups.push(store.cleanup)
    let database = await store.open()
    const runs: string[] = []
    // First process: the task starts and never finishes (as if killed mid-task).
    const stuck: TaskDefinition<{ label: string }> = {
      handle: async (task) => {
        runs.push(`first:${task.data.label}`)
        await new Promise(() => undefined)
      },
    }
    const first = await start(database, store.jobsSchema, { work: stuck })
    await first.send('work', { label: 'a' })
    await eventually(() => runs.length === 1, 30_000)
    // Simulate the crash: pg-boss's row stays active, the process's runtime is abandoned.
    const { rows } = await sql<{ state: string }>`select state from ${sql.id(store.jobsSchema)}.job where name = 'work'`.execute(database.db)
    expect(rows.map((r) => r.state)).toEqual(['active'])
    await database.close().catch(() => undefined)
    database = await store.open()
    const done: TaskDefinition<{ label: string }> = {
      handle: async (task) => {
        runs.push(`second:${task.data.label}`)
      },
    }
    const second = await start(database, store.jobsSchema, { work: done })
    try {
      await eventually(() => runs.includes('second:a'), 30_000)
      expect(runs).toEqual(['first:a', 'second:a'])
    } finally {
      await second.stop()
      await database.close()
    }
  })
})
