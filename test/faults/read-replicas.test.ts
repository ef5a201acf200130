// Read replicas (DATABASE_READ_URLS) on a real hot standby: a private primary and a
// replica made from it with pg_basebackup -R, two Beacon instances reading through it.
// Whatever the replica does (keeps up, has its replay paused, is killed), every read
// answers 200 and reflects every write acknowledged before it was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { sql } from 'kysely'
import { addDays, todayUtc } from '../../src/core/date-range.js'
import { call, createTenant, seedSmallWorkspace, type SmallWorkspace } from './helpers/fixtures.js'
import { PrivatePostgres, sleep, startInProcessApp, waitFor, type InProcessApp } from './helpers/private-services.js'

describe.skipIf(!process.env.BEACON_FAULT_TESTS)('read replicas', () => {
  let primary: PrivatePostgres
  let replica: PrivatePostgres
  let a: InProcessApp
  let b: InProcessApp
  let tenant: { workspaceId: string; key: string }
  let other: { workspaceId: string; key: string }
  let seed: SmallWorkspace
  let written = 0

  const onReplica = async (text: string) => {
    const client = new pg.Client({ connectionString: replica.url() })
    await client.connect()
    try {
      return (await client.query(text)).rows
    } finally {
      await client.end()
    }
  }
  const counts = (app: InProcessApp) => ({ ...app.app.readReplicas!.counts })
  /** The replica has replayed everything the primary has committed. */
  const caughtUp = () =>
    waitFor(
      'the replica to catch up',
      async () => {
        const [{ lsn }] = (await a.database.db.executeQuery(sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.compile(a.database.db))).rows
        const [{ behind }] = await onReplica(`select pg_wal_lsn_diff('${lsn}', pg_last_wal_replay_lsn()) > 0 as behind`)
        return behind === false
      },
      30_000,
    )

  /** Ingests one response through `app`; resolves when it is acknowledged. */
  async function write(app: InProcessApp): Promise<void> {
    const n = written
    const response = await call<{ data: { accepted: number } }>(app.url, tenant.key, 'POST', '/api/v1/ingest/responses', {
      responses: [
        {
          external_id: `replica-${n}`,
          prompt_id: seed.promptId,
          provider: 'openai',
          model: 'gpt-4o',
          content: 'Acme again.',
          created_at: `${addDays(todayUtc(), -1)}T08:00:00Z`,
        },
      ],
    })
    expect(response.status).toBe(200)
    expect(response.json.data.accepted).toBe(1)
    written = n + 1
  }

  /** The workspace's response count in the last 30 days, as one instance computes it (not from its answer cache). */
  async function responseCount(app: InProcessApp): Promise<{ status: number; total?: number }> {
    const response = await fetch(`${app.url}/api/v1/responses?per_page=1`, {
      headers: { authorization: `Bearer ${tenant.key}`, 'cache-control': 'no-cache' },
      signal: AbortSignal.timeout(30_000),
    })
    const body = (await response.json()) as { data: { pagination: { total_items: number } } }
    return { status: response.status, total: response.status === 200 ? body.data.pagination.total_items : undefined }
  }

  const SEEDED = 40

  beforeAll(async () => {
    primary = await PrivatePostgres.create()
    await primary.start()
    replica = await PrivatePostgres.replicaOf(primary)
    await replica.start()
    const config = { databaseReadUrls: [replica.url()] }
    a = await startInProcessApp({ databaseUrl: primary.url(), config })
    b = await startInProcessApp({ databaseUrl: primary.url(), config })
    tenant = await createTenant(a.database.db)
    other = await createTenant(a.database.db, 'premium', 'Other')
    seed = await seedSmallWorkspace(a.url, tenant.key, SEEDED)
    await seedSmallWorkspace(a.url, other.key, 5)
    written = SEEDED
  })

  afterAll(async () => {
    await a?.close()
    await b?.close()
    await replica?.destroy()
    await primary?.destroy()
  })

  it('reads on the replica once it has the data version, and a write through one instance is visible on the next read through the other', async () => {
    await caughtUp()
    const before = counts(b)
    const read = await responseCount(b)
    expect(read).toEqual({ status: 200, total: written })
    expect(counts(b).replica).toBe(before.replica + 1)

    for (let i = 0; i < 20; i++) {
      const [writer, reader] = i % 2 ? [a, b] : [b, a]
      await write(writer)
      // At once: the replica may or may not have replayed the write yet; either way the answer has it.
      expect(await responseCount(reader)).toEqual({ status: 200, total: written })
    }
  })

  it('keeps row-level security on the replica: a replica transaction sees only its workspace', async () => {
    await caughtUp()
    const route = await a.app.readReplicas!.beginRead(other.workspaceId, 0)
    expect(route).toBeDefined()
    try {
      // No workspace filter in the query: the policies are the only wall.
      const { rows } = await sql<{ n: number; workspaces: number }>`select count(*)::int as n, count(distinct workspace_id)::int as workspaces from response`.execute(route!.trx)
      expect(rows[0]).toEqual({ n: 5, workspaces: 1 })
      const { rows: role } = await sql<{ role: string; recovery: boolean }>`select current_user as role, pg_is_in_recovery() as recovery`.execute(route!.trx)
      expect(role[0]).toEqual({ role: 'beacon_app', recovery: true })
    } finally {
      await route!.trx.rollback().execute()
    }
    // A version the replica has not replayed: no replica transaction.
    expect(await a.app.readReplicas!.beginRead(other.workspaceId, 1_000_000)).toBeUndefined()
  })

  it('answers from the primary while the replica replay is paused, never stale', async () => {
    await caughtUp()
    await onReplica('select pg_wal_replay_pause()')
    try {
      const before = counts(b)
      for (let i = 0; i < 10; i++) {
        await write(a)
        expect(await responseCount(b)).toEqual({ status: 200, total: written })
      }
      expect(counts(b).behind).toBeGreaterThanOrEqual(before.behind + 10)

      // An export taken now has the rows written during the pause.
      const today = todayUtc()
      const file = await fetch(`${b.url}/api/v1/exports/chat-responses?date_from=${addDays(today, -29)}&date_to=${today}`, {
        headers: { authorization: `Bearer ${tenant.key}` },
      })
      expect(file.status).toBe(200)
      const text = await file.text()
      expect(text.split('\r\n').filter((line) => line.length > 0).length - 1).toBe(written)
    } finally {
      await onReplica('select pg_wal_replay_resume()')
    }
    await caughtUp()
    const before = counts(b)
    expect(await responseCount(b)).toEqual({ status: 200, total: written })
    expect(counts(b).replica).toBe(before.replica + 1)
  })

  it('exports from the replica when it has the data version', async () => {
    await caughtUp()
    const before = counts(a)
    const today = todayUtc()
    const file = await fetch(`${a.url}/api/v1/exports/chat-responses?date_from=${addDays(today, -29)}&date_to=${today}`, { headers: { authorization: `Bearer ${tenant.key}` } })
    expect(file.status).toBe(200)
    const lines = (await file.text()).split('\r\n').filter((line) => line.length > 0)
    expect(lines.length - 1).toBe(written)
    expect(counts(a).replica).toBe(before.replica + 1)
  })

  it('answers every read, fresh, when the replica is killed under load', async () => {
    await caughtUp()
    const failures: string[] = []
    let stop = false
    let reads = 0
    const readers = [a, b, a, b].map(async (app) => {
      while (!stop) {
        const mustSee = written
        const result = await responseCount(app)
        reads++
        if (result.status !== 200 || result.total === undefined || result.total < mustSee) failures.push(JSON.stringify({ ...result, mustSee }))
      }
    })
    const writer = (async () => {
      while (!stop) {
        await write(a)
        await sleep(20)
      }
    })()
    await sleep(1_000)
    const readsBeforeKill = reads
    await replica.kill()
    await sleep(3_000)
    stop = true
    await Promise.all([...readers, writer])
    expect(failures).toEqual([])
    expect(reads).toBeGreaterThan(readsBeforeKill + 20)
    // The dead replica is skipped: a read answers at once from the primary.
    const t = performance.now()
    expect(await responseCount(b)).toEqual({ status: 200, total: written })
    expect(performance.now() - t).toBeLessThan(2_000)
  })
})
