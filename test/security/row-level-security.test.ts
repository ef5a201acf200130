// Row-level security on PostgreSQL: the second wall behind the workspace filter in
// every query. PGlite's only user is a superuser, so these checks are PostgreSQL-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestContext, type TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest } from '../helpers/requests.js'
import { APP_ROLE, beginScoped, setScope } from '../../src/db/tenant-scope.js'
import { hashApiKey } from '../../src/auth/api-keys.js'
import { ROLLUP_TABLES, rowLevelSecurityStatements, tenantTables } from '../../src/rollups/index.js'

describe.skipIf(!process.env.TEST_DATABASE_URL)('row-level security (postgres)', () => {
  let ctx: TestContext
  let a: { workspaceId: string; key: string }
  let b: { workspaceId: string; key: string }
  // The catalog's list (every table with a workspace_id column) and the workspace table.
  let TENANT_TABLES: string[]
  beforeAll(async () => {
    // One pooled connection: whatever a request leaves on it, the next user would see.
    ctx = await createTestContext('postgres', { databasePoolSize: 1 })
    TENANT_TABLES = ['workspace', ...(await tenantTables(ctx.database.db))]
    a = await ctx.tenant()
    b = await ctx.tenant()
    for (const t of [a, b]) {
      const prompt = await createPrompt(ctx, t.key, 'Which tool?', ['x'])
      await createBrand(ctx, t.key, { name: 'Acme' })
      await ingest(ctx, t.key, [{ prompt_id: prompt, provider: 'openai', model: 'gpt-4o', content: 'Acme is good. https://acme.com', created_at: new Date().toISOString() }])
    }
  })
  afterAll(() => ctx.close())

  it('the service role is neither superuser nor BYPASSRLS, and every tenant table forces RLS', async () => {
    const { rows: role } = await sql<{ rolsuper: boolean; rolbypassrls: boolean }>`select rolsuper, rolbypassrls from pg_roles where rolname = ${APP_ROLE}`.execute(ctx.database.db)
    expect(role).toEqual([{ rolsuper: false, rolbypassrls: false }])
    const { rows } = await sql<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }>`
      select relname, relrowsecurity, relforcerowsecurity from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'r' and relname = any(${TENANT_TABLES}::text[])`.execute(
      ctx.database.db,
    )
    expect(rows).toHaveLength(TENANT_TABLES.length)
    for (const row of rows) expect(row, row.relname).toMatchObject({ relrowsecurity: true, relforcerowsecurity: true })
    // The catalog's list holds the facts and every rollup table (nothing kept by hand).
    expect(TENANT_TABLES).toEqual(expect.arrayContaining(['api_key', 'response', 'mention', 'citation', 'aio_appearance', ...ROLLUP_TABLES]))
    const { rows: policies } = await sql<{ tablename: string }>`
      select tablename from pg_policies where schemaname = current_schema() and policyname = 'tenant_isolation'`.execute(ctx.database.db)
    expect(policies.map((p) => p.tablename).sort()).toEqual([...TENANT_TABLES].sort())
  })

  it('rowLevelSecurityStatements gives a new table the policy the migrations wrote', async () => {
    const db = ctx.database.db
    await sql`create table rls_probe (workspace_id uuid not null, n integer)`.execute(db)
    try {
      for (const statement of rowLevelSecurityStatements('rls_probe')) await sql.raw(statement).execute(db)
      const { rows } = await sql<{ tablename: string; qual: string; with_check: string; relforcerowsecurity: boolean }>`
        select p.tablename, p.qual, p.with_check, c.relforcerowsecurity from pg_policies p
        join pg_class c on c.relname = p.tablename and c.relnamespace = current_schema()::regnamespace
        where p.schemaname = current_schema() and p.tablename in ('rls_probe', 'daily_url_stats') order by p.tablename`.execute(db)
      expect(rows).toHaveLength(2)
      const [migrated, probe] = rows
      expect(probe).toEqual({ ...migrated, tablename: 'rls_probe' })
      expect(probe.relforcerowsecurity).toBe(true)
    } finally {
      await sql`drop table rls_probe`.execute(db)
    }
  })

  it('a query without the workspace setting sees nothing', async () => {
    const trx = await beginScoped(ctx.database.db, { useRole: true })
    try {
      for (const table of TENANT_TABLES) {
        const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(trx)
        expect(Number(rows[0].n), table).toBe(0)
      }
    } finally {
      await trx.rollback().execute()
    }
    // The data is there: the owner (a superuser here) sees both workspaces.
    const { rows } = await sql<{ n: number }>`select count(distinct workspace_id) as n from response`.execute(ctx.database.db)
    expect(Number(rows[0].n)).toBe(2)
  })

  it('a key hash alone shows that key and its workspace row, and no other tenant data', async () => {
    const trx = await beginScoped(ctx.database.db, { useRole: true, keyHash: hashApiKey(a.key) })
    try {
      const { rows: workspaces } = await sql<{ id: string }>`select id from workspace`.execute(trx)
      expect(workspaces.map((w) => w.id)).toEqual([a.workspaceId])
      const { rows: keys } = await sql<{ workspace_id: string }>`select workspace_id from api_key`.execute(trx)
      expect(keys.map((k) => k.workspace_id)).toEqual([a.workspaceId])
      for (const table of TENANT_TABLES.filter((t) => t !== 'workspace' && t !== 'api_key')) {
        const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(trx)
        expect(Number(rows[0].n), table).toBe(0)
      }
      // Seeing the workspace row does not allow changing it.
      const updated = await sql`update workspace set tier = 'free' where id = ${a.workspaceId}`.execute(trx).then(
        (r) => Number(r.numAffectedRows ?? 0),
        (error: Error) => error.message,
      )
      expect(String(updated)).toMatch(/row-level security|^0$/)
    } finally {
      await trx.rollback().execute()
    }
  })

  it('a scoped query without any workspace filter sees only its own workspace, and cannot write into another', async () => {
    const trx = await beginScoped(ctx.database.db, { useRole: true })
    try {
      await setScope(trx, 'app.workspace_id', a.workspaceId)
      const { rows } = await sql<{ workspace_id: string }>`select distinct workspace_id from response`.execute(trx)
      expect(rows.map((r) => r.workspace_id)).toEqual([a.workspaceId])
      await expect(sql`insert into model (workspace_id, id, provider, name) values (${b.workspaceId}, 'sneaky', 'openai', 'x')`.execute(trx)).rejects.toThrow(/row-level security/)
    } finally {
      await trx.rollback().execute()
    }
  })

  it('a pooled connection carries nothing over from a request', async () => {
    const response = await ctx.get('/api/v1/dashboard', a.key)
    expect(response.statusCode).toBe(200)
    expect(response.json().data.total_mentions).toBe(1)
    // Same single pooled connection, next user, no setting of its own.
    const trx = await beginScoped(ctx.database.db, { useRole: true })
    try {
      const { rows } = await sql<{ ws: string | null; n: number }>`select current_setting('app.workspace_id', true) as ws, (select count(*) from response) as n`.execute(trx)
      expect(rows[0].ws ?? '').toBe('')
      expect(Number(rows[0].n)).toBe(0)
    } finally {
      await trx.rollback().execute()
    }
    const { rows } = await sql<{ role: string }>`select current_user as role`.execute(ctx.database.db)
    expect(rows[0].role).not.toBe(APP_ROLE)
  })

  it('requests keep working under RLS: reads, writes and 404s', async () => {
    const filters = await ctx.get('/api/v1/filters', b.key)
    expect(filters.json().data.models).toEqual([{ id: 'gpt-4o', provider: 'openai', name: 'gpt-4o' }])
    const prompt = await createPrompt(ctx, b.key, 'Another?')
    expect(prompt).toMatch(/^[0-9a-f-]{36}$/)
    const foreign = await ctx.get(`/api/v1/prompts/${prompt}`, a.key)
    expect(foreign.statusCode).toBe(404)
  })
})
