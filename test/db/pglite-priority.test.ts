// The embedded database's one connection goes to a waiting request before waiting
// background work (src/db/pglite-driver.ts), but background work that has waited its
// limit goes next anyway, so a job makes progress under a steady stream of requests.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, sql } from 'kysely'
import { PriorityPGliteDialect, runAsBackgroundWork } from '../../src/db/pglite-driver.js'

describe('PGlite connection queue: requests before background work', () => {
  let pglite: PGlite
  let db: Kysely<unknown>
  const ran: string[] = []
  // One database for all (creating one costs seconds); each test gets its own Kysely and queue.
  beforeAll(async () => {
    pglite = await PGlite.create()
  })
  afterAll(() => pglite.close())
  afterEach(async () => {
    ran.length = 0
    await db.destroy()
  })

  async function open(maxBackgroundWaitMs: number) {
    // Records the order in which statements reach the database.
    const client = {
      query: (text: string, params?: unknown[]) => {
        ran.push(text)
        return pglite.query(text, params)
      },
      close: async () => {},
    }
    db = new Kysely<unknown>({ dialect: new PriorityPGliteDialect(client, maxBackgroundWaitMs) })
  }

  /** Holds the connection (a transaction) until the returned function is called. */
  async function holdConnection() {
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let held!: () => void
    const holding = new Promise<void>((resolve) => (held = resolve))
    const done = runAsBackgroundWork(() =>
      db.transaction().execute(async (trx) => {
        await sql`select 'held'`.execute(trx)
        held()
        await released
      }),
    )
    await holding
    return async () => {
      release()
      await done
    }
  }

  it('runs a request queued after background work first', async () => {
    await open(60_000)
    const release = await holdConnection()
    const background = runAsBackgroundWork(() => sql`select 'background'`.execute(db))
    const request = sql`select 'request'`.execute(db)
    await release()
    await Promise.all([background, request])
    expect(ran.filter((text) => !['begin', 'commit', "select 'held'"].includes(text))).toEqual(["select 'request'", "select 'background'"])
  })

  it('keeps first come, first served among requests and among background work', async () => {
    await open(60_000)
    const release = await holdConnection()
    const all = [
      runAsBackgroundWork(() => sql`select 'background 1'`.execute(db)),
      sql`select 'request 1'`.execute(db),
      runAsBackgroundWork(() => sql`select 'background 2'`.execute(db)),
      sql`select 'request 2'`.execute(db),
    ]
    await release()
    await Promise.all(all)
    expect(ran.slice(3)).toEqual(["select 'request 1'", "select 'request 2'", "select 'background 1'", "select 'background 2'"])
  })

  it('lets background work that has waited its limit go before a request', async () => {
    await open(50)
    const release = await holdConnection()
    const background = runAsBackgroundWork(() => sql`select 'background'`.execute(db))
    await new Promise((resolve) => setTimeout(resolve, 80))
    const request = sql`select 'request'`.execute(db)
    await release()
    await Promise.all([background, request])
    expect(ran.slice(3)).toEqual(["select 'background'", "select 'request'"])
  })

  it('does not leave a transaction open to another user: the queue waits for its commit', async () => {
    await open(0)
    const release = await holdConnection()
    const request = sql<{ n: number }>`select 1 as n`.execute(db)
    await release()
    expect((await request).rows).toEqual([{ n: 1 }])
    expect(ran.indexOf('commit')).toBeLessThan(ran.indexOf('select 1 as n'))
  })
})
