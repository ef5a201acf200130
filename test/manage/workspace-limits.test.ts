// Brand matching's work is bounded by workspace limits; requests over them get a 400
// that names the limit, and OpenAPI shows the limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { post } from '../helpers/requests.js'
import { MAX_ALIASES_PER_BRAND, MAX_BRANDS_PER_WORKSPACE, MAX_TERM_LENGTH } from '../../src/core/limits.js'

describe.each(testBackends)('workspace limits (%s)', (backend) => {
  let ctx: TestContext
  let tenant: { workspaceId: string; key: string }
  beforeAll(async () => {
    ctx = await createTestContext(backend)
    tenant = await ctx.tenant()
  })
  afterAll(() => ctx.close())

  it('refuses too many aliases and too long ones, naming the limit', async () => {
    const many = Array.from({ length: MAX_ALIASES_PER_BRAND + 1 }, (_, i) => `Alias ${i}`)
    const tooMany = await post(ctx, '/api/v1/brands', tenant.key, { name: 'Many', aliases: many })
    expect(tooMany.statusCode).toBe(400)
    expect(tooMany.json().error.param).toBe('aliases')
    expect(tooMany.json().error.message).toContain(String(MAX_ALIASES_PER_BRAND))
    const tooLong = await post(ctx, '/api/v1/brands', tenant.key, { name: 'Long', aliases: ['x'.repeat(MAX_TERM_LENGTH + 1)] })
    expect(tooLong.statusCode).toBe(400)
    expect(tooLong.json().error.message).toContain(String(MAX_TERM_LENGTH))
    const atLimit = await post(ctx, '/api/v1/brands', tenant.key, { name: 'Fine', aliases: many.slice(0, MAX_ALIASES_PER_BRAND).map((a) => a.padEnd(MAX_TERM_LENGTH, 'z')) })
    expect(atLimit.statusCode).toBe(201)
  })

  it('refuses a brand over the workspace limit', async () => {
    const { count } = (await sql<{ count: number }>`select count(*)::int as count from brand where workspace_id = ${tenant.workspaceId}`.execute(ctx.database.db)).rows[0]
    await sql`
      insert into brand (workspace_id, id, name, aliases, is_primary, is_active, discovery_status)
      select ${tenant.workspaceId}, gen_random_uuid(), 'Filler ' || i, '{}', false, false, 'confirmed'
      from generate_series(1, ${MAX_BRANDS_PER_WORKSPACE - count}) as i`.execute(ctx.database.db)
    const over = await post(ctx, '/api/v1/brands', tenant.key, { name: 'One too many' })
    expect(over.statusCode).toBe(400)
    expect(over.json().error.code).toBe('invalid_parameter')
    expect(over.json().error.message).toContain(`(${MAX_BRANDS_PER_WORKSPACE})`)
    // Another workspace is not affected.
    const other = await ctx.tenant()
    expect((await post(ctx, '/api/v1/brands', other.key, { name: 'One too many' })).statusCode).toBe(201)
  })

  it('shows the limits in OpenAPI', async () => {
    const doc = (await ctx.app.inject({ url: '/openapi.json' })).json()
    const body = doc.paths['/api/v1/brands'].post.requestBody.content['application/json'].schema
    expect(body.properties.aliases.maxItems).toBe(MAX_ALIASES_PER_BRAND)
    expect(body.properties.aliases.items.maxLength).toBe(MAX_TERM_LENGTH)
    expect(doc.paths['/api/v1/brands'].post.description).toContain(String(MAX_BRANDS_PER_WORKSPACE))
  })
})
