// A real `beacon serve` is SIGKILLed in the middle of a collection run (demo provider, no
// network) and started again: the run finishes with every planned answer stored exactly
// once (count = planned, no duplicates, nothing lost). PGlite: the restart returns the dead
// process's tasks at once. PostgreSQL (when TEST_DATABASE_URL is set): other instances may
// be running them, so they come back when they expire (COLLECTION_TASK_EXPIRE_SECONDS) at
// pg-boss's next maintenance (JOBS_MAINTENANCE_SECONDS); both are short here.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { openDatabase } from '../../src/db/database.js'
import { migrateToLatest } from '../../src/db/migrate.js'
import { createWorkspace } from '../../src/admin/workspaces.js'
import { createApiKey } from '../../src/admin/api-key-store.js'
import { SCOPES } from '../../src/auth/scopes.js'
import { newId } from '../../src/db/ids.js'
import { createInstanceDatabase, type InstanceDatabase } from '../helpers/instances.js'
import { startChildServer, type ChildServer } from '../faults/helpers/private-services.js'

const backends = ['pglite' as const, ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : [])]
const PROMPTS = 8
const SAMPLES = 3

describe.each(backends)('a crash during a collection run (%s)', (backend) => {
  const dir = mkdtempSync(join(tmpdir(), 'beacon-collect-crash-'))
  let pgDatabase: InstanceDatabase | undefined
  let server: ChildServer | undefined
  afterAll(async () => {
    await server?.kill()
    await pgDatabase?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('finishes after a restart with count = planned and nothing stored twice', async () => {
    if (backend === 'postgres') pgDatabase = await createInstanceDatabase('beacon_collect_crash')
    const database = await openDatabase({ ...loadConfig({}), databaseUrl: pgDatabase?.url, dataDir: dir, databasePoolSize: 2 })
    await migrateToLatest(database.db)
    const workspace = await createWorkspace(database.db, { name: 'Crash', tier: 'premium' })
    const { key } = await createApiKey(database.db, { workspaceId: workspace.id, scopes: [...SCOPES] })
    await database.db
      .insertInto('brand')
      .values(['Tasklane', 'Kanbrio', 'Boardnook'].map((name) => ({ workspace_id: workspace.id, id: newId(), name })))
      .execute()
    await database.db
      .insertInto('prompt')
      .values(
        Array.from({ length: PROMPTS }, (_, i) => ({ workspace_id: workspace.id, id: newId(), text: `What is the best project management software for small teams? (${i})` })),
      )
      .execute()
    await database.db
      .insertInto('collection_target')
      .values({ workspace_id: workspace.id, id: newId(), provider: 'openai', model: 'gpt-4o-mini', api: 'demo', samples: SAMPLES, last_scheduled_at: new Date() })
      .execute()
    await database.close()

    const env = {
      ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : { BEACON_DATA_DIR: dir }),
      BEACON_DEMO_LATENCY_MS: '300',
      COLLECTION_CONCURRENCY: '2',
      COLLECTION_TASK_EXPIRE_SECONDS: '5',
      JOBS_MAINTENANCE_SECONDS: '2',
      JOBS_POLL_SECONDS: '1',
      LOG_LEVEL: 'warn',
    }
    const api = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const response = await fetch(`${server!.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return (await response.json()) as { data: { id: string; state: string; planned: number; succeeded: number; failed: number; duplicates: number; skipped: number } }
    }

    server = await startChildServer(env)
    const run = (await api('POST', '/api/v1/collection/runs', {})).data
    // Kill it once some answers are stored and many are still to come.
    for (let i = 0; i < 600; i++) {
      const now = (await api('GET', `/api/v1/collection/runs/${run.id}`)).data
      if (now.succeeded >= 4) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await server.kill()
    const checkDb = await openDatabase({ ...loadConfig({}), databaseUrl: pgDatabase?.url, dataDir: dir, databasePoolSize: 2 })
    const atKill = await checkDb.db.selectFrom('collection_run').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow()
    await checkDb.close()
    expect(atKill.planned).toBe(PROMPTS * SAMPLES)
    expect(atKill.succeeded).toBeLessThan(PROMPTS * SAMPLES)

    server = await startChildServer(env)
    let finished = (await api('GET', `/api/v1/collection/runs/${run.id}`)).data
    for (let i = 0; i < 3000 && !['succeeded', 'failed'].includes(finished.state); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      finished = (await api('GET', `/api/v1/collection/runs/${run.id}`)).data
    }
    await server.stop()
    server = undefined
    expect(finished).toMatchObject({ state: 'succeeded', planned: PROMPTS * SAMPLES, succeeded: PROMPTS * SAMPLES, failed: 0, duplicates: 0, skipped: 0 })

    const after = await openDatabase({ ...loadConfig({}), databaseUrl: pgDatabase?.url, dataDir: dir, databasePoolSize: 2 })
    try {
      const responses = await after.db.selectFrom('response').select('external_id').where('workspace_id', '=', workspace.id).execute()
      expect(responses).toHaveLength(PROMPTS * SAMPLES)
      expect(new Set(responses.map((r) => r.external_id)).size).toBe(PROMPTS * SAMPLES)
      const answers = await after.db.selectFrom('collection_answer').select('outcome').where('workspace_id', '=', workspace.id).execute()
      expect(answers).toHaveLength(PROMPTS * SAMPLES)
    } finally {
      await after.close()
    }
  }, 400_000)
})
