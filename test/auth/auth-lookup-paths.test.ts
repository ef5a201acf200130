// The two ways a request authenticates under row-level security (PostgreSQL): the key hash
// is set first and the lookup runs under the service role's policies, or, when the
// connecting role bypasses row-level security, the lookup runs first and sets the scope
// and the role in the same statement (one round trip fewer). Both must leave the request's
// transaction in the same state and refuse the same keys.
import Fastify, { type FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuthHook, finishScopedTransaction } from '../../src/auth/authenticate.js'
import { hashApiKey } from '../../src/auth/api-keys.js'
import { createApiKey, revokeApiKey } from '../../src/admin/api-key-store.js'
import { APP_ROLE, bypassesRowSecurity } from '../../src/db/tenant-scope.js'
import { errorHandler } from '../../src/http/error-handler.js'
import { createTestContext, type TestContext } from '../helpers/test-app.js'
import { createPrompt, ingest } from '../helpers/requests.js'

describe.skipIf(!process.env.TEST_DATABASE_URL)('request authentication under row-level security (postgres)', () => {
  let ctx: TestContext
  let a: { workspaceId: string; key: string }
  let b: { workspaceId: string; key: string }
  const apps: Record<'lookupFirst' | 'hashFirst', FastifyInstance> = {} as never

  beforeAll(async () => {
    ctx = await createTestContext('postgres', { databasePoolSize: 1 })
    a = await ctx.tenant()
    b = await ctx.tenant()
    for (const t of [a, b]) {
      const prompt = await createPrompt(ctx, t.key, 'Which tool?')
      await ingest(ctx, t.key, [{ prompt_id: prompt, provider: 'openai', model: 'gpt-4o', content: 'Acme is good.', created_at: new Date().toISOString() }])
    }
    await ingest(ctx, b.key, [{ prompt_id: await createPrompt(ctx, b.key, 'And?'), provider: 'openai', model: 'gpt-4o', content: 'Fine.', created_at: new Date().toISOString() }])
    for (const lookupFirst of [true, false]) {
      const app = Fastify()
      app.setErrorHandler(errorHandler)
      app.decorateRequest('db', null, [])
      app.addHook('onRequest', createAuthHook(ctx.database.db, { scoped: true, useRole: true, lookupFirst }))
      app.addHook('onResponse', async (request) => finishScopedTransaction(request, false))
      // What the request's own queries see: who they run as, which scope, how many answers.
      app.get('/state', async (request) => {
        const { rows } = await sql<{ role: string; workspace: string; key_hash: string; responses: number; workspaces: number }>`
          select current_user as role, current_setting('app.workspace_id', true) as workspace, current_setting('app.key_hash', true) as key_hash,
            (select count(*) from response)::int as responses, (select count(*) from workspace)::int as workspaces`.execute(request.db)
        return { ...rows[0], auth: request.auth.workspaceId }
      })
      await app.ready()
      apps[lookupFirst ? 'lookupFirst' : 'hashFirst'] = app
    }
  })
  afterAll(async () => {
    await Promise.all(Object.values(apps).map((app) => app.close()))
    await ctx.close()
  })

  it('the test connects as a role that bypasses row-level security (the lookup-first case)', async () => {
    expect(await bypassesRowSecurity(ctx.database.db)).toBe(true)
  })

  for (const mode of ['lookupFirst', 'hashFirst'] as const) {
    it(`${mode}: the request runs as the service role, scoped to its key's workspace only`, async () => {
      for (const [tenant, responses] of [
        [a, 1],
        [b, 2],
      ] as const) {
        const response = await apps[mode].inject({ url: '/state', headers: { authorization: `Bearer ${tenant.key}` } })
        expect(response.statusCode).toBe(200)
        expect(response.json()).toEqual({ role: APP_ROLE, workspace: tenant.workspaceId, key_hash: hashApiKey(tenant.key), responses, workspaces: 1, auth: tenant.workspaceId })
      }
      // The one pooled connection carries nothing over to the next user.
      const { rows } = await sql<{ role: string; workspace: string | null }>`select current_user as role, current_setting('app.workspace_id', true) as workspace`.execute(
        ctx.database.db,
      )
      expect(rows[0].role).not.toBe(APP_ROLE)
      expect(rows[0].workspace ?? '').toBe('')
    })

    it(`${mode}: unknown and revoked keys are refused`, async () => {
      const unknown = (await createApiKey(ctx.database.db, { workspaceId: a.workspaceId, scopes: ['read:analytics'] })).key
      // A well-formed key that was never stored: change the stored one's hash by deleting it.
      await sql`delete from api_key where key_hash = ${hashApiKey(unknown)}`.execute(ctx.database.db)
      const revoked = await createApiKey(ctx.database.db, { workspaceId: a.workspaceId, scopes: ['read:analytics'] })
      await revokeApiKey(ctx.database.db, revoked.id)
      for (const [key, message] of [
        [unknown, 'Unknown API key'],
        [revoked.key, 'This API key has been revoked; create a new one'],
      ]) {
        const response = await apps[mode].inject({ url: '/state', headers: { authorization: `Bearer ${key}` } })
        expect(response.statusCode).toBe(401)
        expect(response.json().error.message).toBe(message)
      }
    })
  }
})
