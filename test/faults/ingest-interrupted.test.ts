// The server process is SIGKILLed while it stores a 1,000-item batch. A batch is one
// transaction, so it must be stored whole or not at all; re-sending it after a restart
// stores it exactly once, and a further re-send reports every item as a duplicate.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { migrateToLatest } from '../../src/db/migrate.js'
import { addDays, todayUtc } from '../../src/core/date-range.js'
import { call, createTenant } from './helpers/fixtures.js'
import { PrivatePostgres, sleep, startChildServer, waitFor, type ChildServer } from './helpers/private-services.js'

const BATCH = 1_000
// Even items name both brands, odd items only Acme; every item cites one URL:
// mentions per batch = 500 × 2 + 500 × 1 = 1,500; citations = 1,000 × 1 = 1,000.
const MENTIONS_PER_BATCH = 1_500
const CITATIONS_PER_BATCH = 1_000

interface Stored {
  responses: number
  mentions: number
  citations: number
}

describe.skipIf(!process.env.BEACON_FAULT_TESTS)('ingestion interrupted by a killed process', () => {
  let pg: PrivatePostgres
  let database: DatabaseHandle
  let workspaceId: string
  let key: string
  let promptId: string
  let server: ChildServer | undefined

  const startServer = async () => {
    server = await startChildServer({ DATABASE_URL: pg.url(), DATABASE_POOL_SIZE: '4' })
    return server
  }

  function batch(tag: string) {
    const today = todayUtc()
    return Array.from({ length: BATCH }, (_, i) => ({
      external_id: `${tag}-${i}`,
      prompt_id: promptId,
      provider: i % 2 ? 'openai' : 'anthropic',
      model: i % 2 ? 'gpt-4o' : 'claude-sonnet-4',
      content: i % 2 ? `Acme is the pick for small teams (run ${i}).` : `Acme leads the field and Globex follows closely (run ${i}).`,
      created_at: `${addDays(today, -(i % 20))}T08:00:00Z`,
      citations: [{ url: `https://acme.com/pricing?utm_source=run${i}`, title: 'Pricing' }],
    }))
  }

  async function stored(tag: string): Promise<Stored> {
    const ids = database.db.selectFrom('response').select('id').where('workspace_id', '=', workspaceId).where('external_id', 'like', `${tag}-%`)
    const [responses, mentions, citations] = await Promise.all([
      ids
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      database.db
        .selectFrom('mention')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('response_id', 'in', ids)
        .executeTakeFirstOrThrow(),
      database.db
        .selectFrom('citation')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('response_id', 'in', ids)
        .executeTakeFirstOrThrow(),
    ])
    return { responses: Number(responses.n), mentions: Number(mentions.n), citations: Number(citations.n) }
  }

  // The test's own sessions carry this name; every other session belongs to the server.
  const TEST_APP_NAME = 'beacon-fault-test'

  /** Server sessions with a transaction open right now. */
  async function openTransactions(): Promise<number> {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and backend_type = 'client backend'
        and application_name <> ${TEST_APP_NAME} and xact_start is not null`.execute(database.db)
    return rows[0].n
  }

  /** A killed server's sessions end, rolling back what they had open, once PostgreSQL sees the closed socket. */
  async function serverSessionsGone(serverPid: number): Promise<void> {
    await waitFor(
      `the killed server's (pid ${serverPid}) sessions to end`,
      async () => {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and backend_type = 'client backend' and application_name <> ${TEST_APP_NAME}`.execute(database.db)
        return rows[0].n === 0
      },
      10_000,
    )
  }

  beforeAll(async () => {
    pg = await PrivatePostgres.create()
    await pg.start()
    database = await openDatabase({ databaseUrl: `${pg.url()}?application_name=${TEST_APP_NAME}`, dataDir: '', databasePoolSize: 2 })
    await migrateToLatest(database.db)
    ;({ workspaceId, key } = await createTenant(database.db, 'basic', 'Ingest crash'))
    const srv = await startServer()
    for (const brand of [
      { name: 'Acme', domain: 'acme.com', is_primary: true },
      { name: 'Globex', domain: 'globex.com' },
    ]) {
      expect((await call(srv.url, key, 'POST', '/api/v1/brands', brand)).status).toBe(201)
    }
    const prompt = await call<{ data: { id: string } }>(srv.url, key, 'POST', '/api/v1/prompts', { text: 'Best CRM for a small team?', tags: ['crm'] })
    expect(prompt.status).toBe(201)
    promptId = prompt.json.data.id
  })

  afterAll(async () => {
    await server?.kill()
    await database?.close()
    await pg?.destroy()
  })

  it('stores a batch whole or not at all when the server is killed mid-request, and exactly once on re-send', async () => {
    // An uninterrupted batch first: it fixes the expected counts and how long a batch takes.
    const started = performance.now()
    const warm = await call(server!.url, key, 'POST', '/api/v1/ingest/responses', { responses: batch('warm') })
    const batchMs = performance.now() - started
    expect(warm.json.data).toEqual({ accepted: BATCH, duplicates: 0 })
    expect(await stored('warm')).toEqual({ responses: BATCH, mentions: MENTIONS_PER_BATCH, citations: CITATIONS_PER_BATCH })

    // Kill moments from "body still arriving" to "about to commit".
    const delays = [...new Set([50, 200, Math.round(batchMs * 0.5), Math.round(batchMs * 0.8), Math.round(batchMs * 0.95)])].sort((x, y) => x - y)
    const rounds: { delayMs: number; openTransactions: number; storedBeforeResend: number }[] = []
    for (const [round, delayMs] of delays.entries()) {
      const tag = `kill${round}`
      const items = batch(tag)
      const srv = server!
      const request = call(srv.url, key, 'POST', '/api/v1/ingest/responses', { responses: items }).catch((error: Error) => error)
      await sleep(delayMs)
      const open = await openTransactions()
      await srv.kill()
      await request
      await serverSessionsGone(srv.pid)

      const afterKill = await stored(tag)
      rounds.push({ delayMs, openTransactions: open, storedBeforeResend: afterKill.responses })
      // Whole or nothing, facts included.
      expect([
        { responses: 0, mentions: 0, citations: 0 },
        { responses: BATCH, mentions: MENTIONS_PER_BATCH, citations: CITATIONS_PER_BATCH },
      ]).toContainEqual(afterKill)

      const restarted = await startServer()
      const resend = await call(restarted.url, key, 'POST', '/api/v1/ingest/responses', { responses: items })
      expect(resend.status).toBe(200)
      expect(resend.json.data).toEqual({ accepted: BATCH - afterKill.responses, duplicates: afterKill.responses })
      expect(await stored(tag)).toEqual({ responses: BATCH, mentions: MENTIONS_PER_BATCH, citations: CITATIONS_PER_BATCH })

      const again = await call(restarted.url, key, 'POST', '/api/v1/ingest/responses', { responses: items })
      expect(again.json.data).toEqual({ accepted: 0, duplicates: BATCH })
      expect(await stored(tag)).toEqual({ responses: BATCH, mentions: MENTIONS_PER_BATCH, citations: CITATIONS_PER_BATCH })
    }
    console.log(`[ingest interrupted] uninterrupted batch ${Math.round(batchMs)} ms; rounds: ${JSON.stringify(rounds)}`)

    // The kills must really have landed inside a running transaction at least once,
    // or this test would prove nothing.
    expect(rounds.some((r) => r.openTransactions > 0 && r.storedBeforeResend === 0)).toBe(true)
    // Nothing else leaked in: the workspace holds exactly the batches sent.
    const total = await database.db
      .selectFrom('response')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow()
    expect(Number(total.n)).toBe(BATCH * (delays.length + 1))
  })
})
