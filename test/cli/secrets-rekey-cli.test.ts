// `beacon secrets rekey` as a user runs it, on the embedded database: progress on stderr,
// the result (or --json), exit codes, and what it says when a key is missing or wrong.
// The crash case (SIGKILL mid-way, PostgreSQL) is test/security/secret-rekey-crash.test.ts.
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { openDatabase } from '../../src/db/database.js'
import { migrateToLatest } from '../../src/db/migrate.js'
import { createWorkspace } from '../../src/admin/workspaces.js'
import { cliSandbox } from '../helpers/cli.js'
import { countByKey, NEW_KEY, OLD_KEY, openStoredSecrets, OTHER_KEY, storeSecrets } from '../helpers/sealed-secrets.js'

// Each run starts a process that opens and migrates the embedded database.
describe('beacon secrets rekey (pglite)', { timeout: 300_000 }, () => {
  const { dataDir, beaconWith, json } = cliSandbox('beacon-rekey-cli')
  const withDb = async <T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> => {
    const database = await openDatabase({ ...loadConfig({}), dataDir })
    try {
      await migrateToLatest(database.db)
      return await fn(database)
    } finally {
      await database.close()
    }
  }

  it('re-seals every stored secret under the new key, shows progress, and is a no-op the second time', async () => {
    const workspaceId = await withDb(async (database) => {
      const workspace = await createWorkspace(database.db, { name: 'Rekey', tier: 'premium' })
      await storeSecrets(database.db, workspace.id, 30, OLD_KEY)
      return workspace.id
    })

    // Without the old key, nothing under it opens: named, left alone, exit 1.
    const missing = beaconWith({ BEACON_SECRET_KEY: NEW_KEY, BEACON_SECRET_KEY_PREVIOUS: undefined }, 'secrets', 'rekey')
    expect(missing.code, missing.stderr).toBe(1)
    expect(missing.stderr).toContain('BEACON_SECRET_KEY_PREVIOUS is not set')
    expect(missing.stderr).toMatch(
      new RegExp(`60 stored secret\\(s\\) open with neither key .*provider credential \\(collection_credential workspace_id=${workspaceId}, name=c-000000\\)`),
    )
    expect(missing.stderr).toContain('and 50 more')
    expect(missing.stdout).toContain('Re-sealed 0 secrets')

    const run = beaconWith({ BEACON_SECRET_KEY: NEW_KEY, BEACON_SECRET_KEY_PREVIOUS: OLD_KEY }, 'secrets', 'rekey')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain('60/60 secrets')
    expect(run.stdout).toContain('provider credentials: 30 stored, 30 re-sealed, 0 already under the current key')
    expect(run.stdout).toContain('webhook secrets: 30 stored, 30 re-sealed')
    expect(run.stdout).toMatch(/Re-sealed 60 secrets in [\d.]+ s; every stored secret now opens with BEACON_SECRET_KEY alone/)
    expect(countByKey(await withDb((database) => openStoredSecrets(database.db, { secretKey: NEW_KEY })))).toEqual({ current: 60, previous: 0, unreadable: 0 })

    const again = json(beaconWith({ BEACON_SECRET_KEY: NEW_KEY, BEACON_SECRET_KEY_PREVIOUS: OLD_KEY }, 'secrets', 'rekey', '--json'))
    expect(again).toMatchObject({ resealed: 0, already_current: 60, changed_meanwhile: 0, unreadable: [] })
    expect(again.columns.map((c: { table: string; total: number }) => [c.table, c.total])).toEqual([
      ['collection_credential', 30],
      ['webhook', 30],
      // every kind in SEALED_SECRETS is reported, the ones with nothing stored too
      ['notification_channel', 0],
    ])
  })

  it('exits 2 saying what to set when BEACON_SECRET_KEY is missing, and 1 with --json naming unreadable records', async () => {
    const noKey = beaconWith({ BEACON_SECRET_KEY: undefined, BEACON_SECRET_KEY_PREVIOUS: undefined }, 'secrets', 'rekey', '--json')
    expect(noKey.code).toBe(2)
    expect(JSON.parse(noKey.stderr).error).toEqual({ code: 'invalid_argument', message: expect.stringMatching(/^BEACON_SECRET_KEY is not set/) })
    const previousOnly = beaconWith({ BEACON_SECRET_KEY: undefined, BEACON_SECRET_KEY_PREVIOUS: OLD_KEY }, 'secrets', 'rekey')
    expect(previousOnly.code).toBe(2)
    expect(previousOnly.stderr).toContain('BEACON_SECRET_KEY_PREVIOUS is set but BEACON_SECRET_KEY is not')

    await withDb(async (database) => {
      const workspace = await createWorkspace(database.db, { name: 'Lost', tier: 'basic' })
      await storeSecrets(database.db, workspace.id, 1, OTHER_KEY, 'lost')
    })
    const lost = beaconWith({ BEACON_SECRET_KEY: NEW_KEY, BEACON_SECRET_KEY_PREVIOUS: OLD_KEY }, 'secrets', 'rekey', '--json')
    expect(lost.code).toBe(1)
    expect(JSON.parse(lost.stdout)).toMatchObject({
      resealed: 0,
      already_current: 60,
      unreadable: [expect.objectContaining({ table: 'collection_credential' }), expect.objectContaining({ table: 'webhook' })],
    })
    expect(JSON.parse(lost.stderr).error).toEqual({ code: 'command_failed', message: expect.stringContaining('2 stored secret(s) open with neither key') })
  })
})
