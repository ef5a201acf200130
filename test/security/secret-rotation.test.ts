// Rotating BEACON_SECRET_KEY (docs/security.md): the start-up check of every stored secret,
// BEACON_SECRET_KEY_PREVIOUS opening the old key's secrets for collection and webhook
// deliveries, and the rekey that re-seals them: complete, idempotent, safe to run twice at
// once, never overwriting a secret replaced while it runs. Every sealed column comes from
// SEALED_SECRETS, and the first test checks that list against the schema.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { sql } from 'kysely'
import pg from 'pg'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import type { Config } from '../../src/config.js'
import { resolveApiKey } from '../../src/collection/credentials.js'
import { checkStoredSecrets, rekeyStoredSecrets, SEALED_SECRETS, type RekeyProgress } from '../../src/security/sealed-secrets.js'
import { SecretBox } from '../../src/security/secret-box.js'
import { webhookDeliveryTask } from '../../src/webhooks/delivery-task.js'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { countByKey, NEW_KEY, OLD_KEY, openStoredSecrets, OTHER_KEY, secretId, storeSecrets } from '../helpers/sealed-secrets.js'
import { credentialContext } from '../../src/collection/credentials.js'

const rotating = { secretKey: NEW_KEY, secretKeyPrevious: OLD_KEY }

describe.each(testBackends)('rotating BEACON_SECRET_KEY (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend)
  })
  afterAll(() => ctx.close())
  // The start-up check reads every workspace: each test starts with no secret stored.
  beforeEach(async () => {
    await ctx.database.db.deleteFrom('collection_credential').execute()
    await ctx.database.db.deleteFrom('webhook').execute()
  })

  const start = async (config: Partial<Config>, logs?: string[]) => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logs?.push(String(chunk))
        done()
      },
    })
    const app = await buildApp({ config: { ...ctx.config, ...config }, database: ctx.database, logger: { level: 'info', stream } })
    await app.close()
  }

  it('declares every sealed column of the schema in SEALED_SECRETS', async () => {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and column_name like '%sealed%'`.execute(ctx.database.db)
    expect(rows.length).toBeGreaterThanOrEqual(2)
    expect(SEALED_SECRETS.map((e) => `${e.table}.${e.column}`).sort()).toEqual(rows.map((r) => `${r.table_name}.${r.column_name}`).sort())
  })

  it('refuses to start when a stored secret opens with no configured key, naming its record and never the secret', async () => {
    const { workspaceId } = await ctx.tenant()
    const plain = await storeSecrets(ctx.database.db, workspaceId, 2, OLD_KEY)
    const sealed = await openSealedValues()
    const failure = await start({ secretKey: NEW_KEY }).then(
      () => undefined,
      (error: Error) => error.message,
    )
    expect(failure).toMatch(/4 of 4 stored secret\(s\) open with neither BEACON_SECRET_KEY nor BEACON_SECRET_KEY_PREVIOUS/)
    expect(failure).toContain(`provider credential (collection_credential workspace_id=${workspaceId}, name=c-000000)`)
    expect(failure).toMatch(new RegExp(`webhook secret \\(webhook workspace_id=${workspaceId}, id=[0-9a-f-]{36}\\)`))
    for (const secret of [...plain.values(), ...sealed]) expect(failure).not.toContain(secret)
    // No key at all: the same names, and what to set.
    const noKey = await start({ secretKey: undefined }).catch((error: Error) => error.message)
    expect(noKey).toMatch(/^4 secret\(s\) are stored encrypted, but BEACON_SECRET_KEY is not set.*Stored: provider credential \(collection_credential workspace_id=/)
    // The right key starts.
    await start({ secretKey: OLD_KEY })
  })

  it('refuses to start with only webhook secrets stored under another key (they used to fail delivery by delivery)', async () => {
    const { workspaceId } = await ctx.tenant()
    await storeSecrets(ctx.database.db, workspaceId, 1, OLD_KEY)
    await ctx.database.db.deleteFrom('collection_credential').execute()
    await expect(start({ secretKey: NEW_KEY })).rejects.toThrow(/1 of 1 stored secret\(s\).*webhook secret \(webhook workspace_id=/)
  })

  it('starts while rotating; collection and webhook deliveries open the old key’s secrets with BEACON_SECRET_KEY_PREVIOUS', async () => {
    const { workspaceId, key } = await ctx.tenant()
    const plain = await storeSecrets(ctx.database.db, workspaceId, 1, OLD_KEY)
    const logs: string[] = []
    await start(rotating, logs)
    expect(logs.join('')).toMatch(/"previous":2.*still sealed with BEACON_SECRET_KEY_PREVIOUS: run `beacon secrets rekey`/)

    const credential = { credential: 'c-000000', provider: 'openai', api: 'native', serp: null }
    expect(await resolveApiKey(ctx.database.db, workspaceId, credential, rotating, {})).toBe(
      plain.get(secretId('collection_credential', { workspace_id: workspaceId, name: 'c-000000' })),
    )
    await expect(resolveApiKey(ctx.database.db, workspaceId, credential, { secretKey: NEW_KEY }, {})).rejects.toThrow(/BEACON_SECRET_KEY_PREVIOUS/)

    // A webhook sealed under the old key: the test send is signed with its secret.
    const webhook = await ctx.database.db.selectFrom('webhook').select('id').where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow()
    const secret = plain.get(secretId('webhook', { workspace_id: workspaceId, id: webhook.id }))!
    const received: { body: string; headers: Record<string, string> }[] = []
    const receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])) })
        response.end('ok')
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    try {
      await ctx.database.db
        .updateTable('webhook')
        .set({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` })
        .where('id', '=', webhook.id)
        .execute()
      const app = await buildApp({ config: { ...ctx.config, ...rotating }, database: ctx.database, logger: false })
      try {
        const deliver = async (keys: { secretKey: string; secretKeyPrevious?: string }) => {
          const sent = await app.inject({ method: 'POST', url: `/api/v1/webhooks/${webhook.id}/test`, headers: { authorization: `Bearer ${key}` } })
          expect(sent.statusCode, sent.body).toBe(202)
          const task = webhookDeliveryTask({ ...keys, timeoutMs: 2000, retrySchedule: [], allowPrivate: true })
          const data = { workspaceId, deliveryId: sent.json().data.delivery_id as string, attempt: 1 }
          await task.handle({ id: 'x', type: 'webhook_delivery', data, db: ctx.database.db, retryCount: 0, retryLimit: 0, stopping: false, tasks: { send: async () => null } })
          return ctx.database.db.selectFrom('webhook_delivery').select(['state', 'last_error']).where('id', '=', data.deliveryId).executeTakeFirstOrThrow()
        }
        expect(await deliver(rotating)).toEqual({ state: 'delivered', last_error: null })
        expect(received).toHaveLength(1)
        expect(() => new Webhook(secret).verify(received[0].body, received[0].headers)).not.toThrow()
        // The new key alone cannot sign it: nothing is sent.
        expect(await deliver({ secretKey: NEW_KEY })).toEqual({ state: 'failed', last_error: expect.stringMatching(/cannot be decrypted/) })
        expect(received).toHaveLength(1)
      } finally {
        await app.close()
      }
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()))
    }
  })

  it('rekey re-seals every secret under the current key, reports its progress, and a second run finds nothing to do', async () => {
    const a = await ctx.tenant()
    const b = await ctx.tenant()
    const plain = new Map([
      ...(await storeSecrets(ctx.database.db, a.workspaceId, 70, OLD_KEY)),
      ...(await storeSecrets(ctx.database.db, b.workspaceId, 60, OLD_KEY)),
      // Stored since the rotation began: already under the new key.
      ...(await storeSecrets(ctx.database.db, b.workspaceId, 5, NEW_KEY, 'fresh')),
    ])
    const progress: RekeyProgress[] = []
    const first = await rekeyStoredSecrets(ctx.database, rotating, { batch: 25, onProgress: (p) => progress.push(p) })
    expect(first).toMatchObject({ resealed: 260, already_current: 10, changed_meanwhile: 0, unreadable: [] })
    expect(first.columns.map((c) => [c.table, c.total, c.resealed])).toEqual([
      ['collection_credential', 135, 130],
      ['webhook', 135, 130],
      // Channel targets (test/notifications/channel-target-rotation.test.ts covers their rekey).
      ['notification_channel', 0, 0],
    ])
    expect(progress[0]).toEqual({ done: 0, total: 270 })
    expect(progress.at(-1)).toEqual({ done: 270, total: 270 })
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((x, y) => x - y))
    expect(progress.length).toBeGreaterThan(10)

    // Every secret now opens with the new key alone, to the same plaintext.
    const opened = await openStoredSecrets(ctx.database.db, { secretKey: NEW_KEY })
    expect(countByKey(opened)).toEqual({ current: 270, previous: 0, unreadable: 0 })
    for (const [id, plaintext] of plain) expect(opened.get(id)?.plaintext, id).toBe(plaintext)
    await start({ secretKey: NEW_KEY })

    const again = await rekeyStoredSecrets(ctx.database, rotating)
    expect(again).toMatchObject({ resealed: 0, already_current: 270, unreadable: [] })
    expect(await checkStoredSecrets(ctx.database, { secretKey: NEW_KEY })).toEqual({ total: 270, previous: 0, checked: true })
  })

  it('rekey names what neither key opens and leaves it as it was, re-sealing the rest', async () => {
    const { workspaceId } = await ctx.tenant()
    await storeSecrets(ctx.database.db, workspaceId, 4, OLD_KEY)
    const lost = await storeSecrets(ctx.database.db, workspaceId, 2, OTHER_KEY, 'lost')
    const before = await ctx.database.db.selectFrom('collection_credential').select(['name', 'sealed']).where('name', 'like', 'lost-%').orderBy('name').execute()
    const result = await rekeyStoredSecrets(ctx.database, rotating)
    expect(result.resealed).toBe(8)
    expect(result.unreadable).toHaveLength(4)
    expect(result.unreadable[0]).toEqual({ kind: 'provider credential', table: 'collection_credential', record: { workspace_id: workspaceId, name: 'lost-000000' } })
    expect(JSON.stringify(result)).not.toContain([...lost.values()][0])
    expect(await ctx.database.db.selectFrom('collection_credential').select(['name', 'sealed']).where('name', 'like', 'lost-%').orderBy('name').execute()).toEqual(before)
    const opened = countByKey(await openStoredSecrets(ctx.database.db, { secretKey: NEW_KEY }))
    expect(opened).toEqual({ current: 8, previous: 0, unreadable: 4 })
  })

  it('two rekeys at once re-seal each secret exactly once', async () => {
    const { workspaceId } = await ctx.tenant()
    const plain = await storeSecrets(ctx.database.db, workspaceId, 120, OLD_KEY)
    const [one, two] = await Promise.all([rekeyStoredSecrets(ctx.database, rotating, { batch: 15 }), rekeyStoredSecrets(ctx.database, rotating, { batch: 15 })])
    expect(one.resealed + two.resealed).toBe(240)
    expect(one.resealed + one.already_current + one.changed_meanwhile).toBe(240)
    expect(two.resealed + two.already_current + two.changed_meanwhile).toBe(240)
    const opened = await openStoredSecrets(ctx.database.db, { secretKey: NEW_KEY })
    for (const [id, plaintext] of plain) expect(opened.get(id), id).toEqual({ plaintext, sealedWith: 'current' })
  })

  it.runIf(backend === 'postgres')('never overwrites a secret replaced while rekey runs (the write is a compare-and-set)', async () => {
    const { workspaceId } = await ctx.tenant()
    await storeSecrets(ctx.database.db, workspaceId, 40, OLD_KEY)
    // Another session (a server storing the credential again) holds the row rekey will write.
    const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL, options: `-c search_path=${ctx.schema}` })
    await other.connect()
    try {
      await other.query('begin')
      await other.query(`select 1 from collection_credential where workspace_id = $1 and name = 'c-000020' for update`, [workspaceId])
      const rekey = rekeyStoredSecrets(ctx.database, rotating, { batch: 8 })
      // Wait until rekey's update waits for that row lock.
      for (let i = 0; ; i++) {
        // Inside a transaction the activity view is a snapshot taken once: take a fresh one.
        await other.query('select pg_stat_clear_snapshot()')
        const { rows } = await other.query(
          `select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like 'update %collection_credential%' and datname = current_database()`,
        )
        if (rows.length > 0) break
        if (i > 400) throw new Error('rekey never reached the locked row')
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      const replacement = 'sk-replaced-while-rekey-ran-0000'
      const sealed = SecretBox.fromSecretKey(NEW_KEY).seal(replacement, credentialContext(workspaceId, 'c-000020'))
      await other.query(`update collection_credential set sealed = $1 where workspace_id = $2 and name = 'c-000020'`, [sealed, workspaceId])
      await other.query('commit')
      const result = await rekey
      expect(result.changed_meanwhile).toBe(1)
      expect(result.resealed).toBe(79)
      const opened = await openStoredSecrets(ctx.database.db, { secretKey: NEW_KEY })
      expect(opened.get(secretId('collection_credential', { workspace_id: workspaceId, name: 'c-000020' }))).toEqual({ plaintext: replacement, sealedWith: 'current' })
      expect(countByKey(opened)).toEqual({ current: 80, previous: 0, unreadable: 0 })
    } finally {
      await other.end()
    }
  })

  /** Every sealed value as stored: none may appear in a message either. */
  async function openSealedValues(): Promise<string[]> {
    const credentials = await ctx.database.db.selectFrom('collection_credential').select('sealed').execute()
    const webhooks = await ctx.database.db.selectFrom('webhook').select('secret_sealed').execute()
    return [...credentials.map((r) => r.sealed), ...webhooks.map((r) => r.secret_sealed)]
  }
})
