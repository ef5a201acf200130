// `beacon secrets rekey` SIGKILLed mid-way on PostgreSQL, with thousands of secrets: every
// secret must still open with the new or the old key, and a second run must finish the job.
// To stop it at a known moment, another session holds a lock on one webhook row in the
// middle of the key order: the CLI has committed every batch before it and is waiting,
// inside a batch transaction, to write that row when it is killed.
import { spawn, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js'
import { migrateToLatest } from '../../src/db/migrate.js'
import { createWorkspace } from '../../src/admin/workspaces.js'
import { checkStoredSecrets } from '../../src/security/sealed-secrets.js'
import { createInstanceDatabase, type InstanceDatabase } from '../helpers/instances.js'
import { countByKey, NEW_KEY, OLD_KEY, openStoredSecrets, storeSecrets } from '../helpers/sealed-secrets.js'

const BIN = fileURLToPath(new URL('../../bin/beacon.js', import.meta.url))
const PER_WORKSPACE = 1500

describe.runIf(process.env.TEST_DATABASE_URL)('beacon secrets rekey killed mid-way (postgres)', { timeout: 300_000 }, () => {
  let instance: InstanceDatabase | undefined
  let database: DatabaseHandle | undefined
  afterAll(async () => {
    await database?.close()
    await instance?.drop()
  })

  it('leaves every secret readable with one of the two keys, and a second run finishes', async () => {
    instance = await createInstanceDatabase('beacon_rekey_crash')
    database = await openDatabase({ ...loadConfig({}), databaseUrl: instance.url, databasePoolSize: 2 })
    await migrateToLatest(database.db)
    const plain = new Map<string, string>()
    for (const name of ['First', 'Second']) {
      const workspace = await createWorkspace(database.db, { name, tier: 'premium' })
      for (const [id, secret] of await storeSecrets(database.db, workspace.id, PER_WORKSPACE, OLD_KEY)) plain.set(id, secret)
    }
    expect(plain.size).toBe(4 * PER_WORKSPACE)

    const env = { ...process.env, DATABASE_URL: instance.url, BEACON_SECRET_KEY: NEW_KEY, BEACON_SECRET_KEY_PREVIOUS: OLD_KEY, LOG_LEVEL: 'silent' }
    const locker = new pg.Client({ connectionString: instance.url })
    await locker.connect()
    try {
      // The webhook in the middle of rekey's order (workspace_id, id).
      const middle = await locker.query<{ workspace_id: string; id: string }>(`select workspace_id, id from webhook order by workspace_id, id offset $1 limit 1`, [PER_WORKSPACE])
      await locker.query('begin')
      await locker.query('select 1 from webhook where workspace_id = $1 and id = $2 for update', [middle.rows[0].workspace_id, middle.rows[0].id])

      const child = spawn(process.execPath, [BIN, 'secrets', 'rekey'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)))
      for (let i = 0; ; i++) {
        // Inside a transaction the activity view is a snapshot taken once: take a fresh one.
        await locker.query('select pg_stat_clear_snapshot()')
        const waiting = await locker.query(`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'update "webhook"%'`)
        if (waiting.rows.length > 0) break
        if (child.exitCode !== null) throw new Error(`rekey ended before reaching the locked row: ${stderr}`)
        if (i > 2400) throw new Error(`rekey never reached the locked row: ${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      child.kill('SIGKILL')
      expect(await exited).toBe('SIGKILL')
    } finally {
      await locker.query('rollback').catch(() => undefined)
      await locker.end()
    }
    // The killed process's server session ends (its open batch rolled back) once it finds the client gone.
    const admin = new pg.Client({ connectionString: instance.url })
    await admin.connect()
    for (let i = 0; i < 200; i++) {
      const { rows } = await admin.query(`select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query like 'update "webhook"%'`)
      if (rows.length === 0) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await admin.end()

    // Mid-way: every credential and the webhooks before the locked row are under the new key,
    // the rest under the old one, and every secret opens to what was stored.
    const midway = await openStoredSecrets(database.db, { secretKey: NEW_KEY, secretKeyPrevious: OLD_KEY })
    const counts = countByKey(midway)
    expect(counts.unreadable).toBe(0)
    expect(counts.current).toBeGreaterThanOrEqual(2 * PER_WORKSPACE)
    expect(counts.current).toBeLessThanOrEqual(3 * PER_WORKSPACE)
    expect(counts.previous).toBeGreaterThanOrEqual(PER_WORKSPACE)
    for (const [id, secret] of plain) expect(midway.get(id)?.plaintext, id).toBe(secret)
    // A server started now needs both keys.
    expect(await checkStoredSecrets(database, { secretKey: NEW_KEY, secretKeyPrevious: OLD_KEY })).toEqual({ total: plain.size, previous: counts.previous, checked: true })
    await expect(checkStoredSecrets(database, { secretKey: NEW_KEY })).rejects.toThrow(`${counts.previous} of ${plain.size} stored secret(s)`)

    // The second run re-seals exactly what the first left.
    const second = spawnSync(process.execPath, [BIN, 'secrets', 'rekey', '--json'], { env, encoding: 'utf8', timeout: 240_000 })
    expect(second.status, second.stderr).toBe(0)
    expect(JSON.parse(second.stdout)).toMatchObject({ resealed: counts.previous, already_current: counts.current, unreadable: [] })
    const done = await openStoredSecrets(database.db, { secretKey: NEW_KEY })
    expect(countByKey(done)).toEqual({ current: plain.size, previous: 0, unreadable: 0 })
    for (const [id, secret] of plain) expect(done.get(id)?.plaintext, id).toBe(secret)
    expect(await checkStoredSecrets(database, { secretKey: NEW_KEY })).toEqual({ total: plain.size, previous: 0, checked: true })
  })
})
