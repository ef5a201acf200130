// loadBrandMatcher compiles a workspace's brand list once and reuses it while the list is
// unchanged; any change that matching would see gives a new matcher, on every backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, testBackends, type TestContext } from '../helpers/test-app.js'
import { brandListFingerprint, loadBrandMatcher, loadBrandTerms } from '../../src/ingest/brand-terms.js'
import { matcherCache } from '../../src/analysis/mentions.js'

describe.each(testBackends)('brand matcher cache (%s)', (backend) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(backend)
  })
  afterAll(() => ctx.close())

  it('reuses the matcher while the brand list is unchanged, and follows every change', async () => {
    const db = ctx.database.db
    const { workspaceId } = await ctx.tenant()
    const other = await ctx.tenant()
    const id = (
      await db
        .insertInto('brand')
        .values({ workspace_id: workspaceId, id: crypto.randomUUID(), name: 'Acme', aliases: ['Acme Inc'] })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
    const first = await loadBrandMatcher(db, workspaceId)
    expect(await loadBrandMatcher(db, workspaceId)).toBe(first)
    expect(first.match('We use Acme Inc.').map((m) => m.brandId)).toEqual([id])
    // Another workspace's list is its own.
    expect((await loadBrandMatcher(db, other.workspaceId)).match('We use Acme Inc.')).toEqual([])

    const edits: [string, Record<string, unknown>, string, boolean][] = [
      ['an alias', { aliases: ['Acme Corp'] }, 'We use Acme Corp.', true],
      ['the name', { name: 'Acmeo' }, 'We use Acmeo.', true],
      ['the domain', { domain: 'acme.io' }, 'See acme.io for more.', true],
      ['deactivation', { is_active: false }, 'We use Acmeo.', false],
    ]
    let previous = first
    for (const [what, change, text, matches] of edits) {
      await db.updateTable('brand').set(change).where('workspace_id', '=', workspaceId).where('id', '=', id).execute()
      const next = await loadBrandMatcher(db, workspaceId)
      expect(next, what).not.toBe(previous)
      expect(next.match(text).length > 0, what).toBe(matches)
      previous = next
    }
  })

  it("drops the superseded list's matcher from the cache, and reads aliases exactly", async () => {
    const db = ctx.database.db
    const { workspaceId } = await ctx.tenant()
    // An alias holding the separator the loader joins aliases with, one holding a comma and a quote.
    const aliases = ['Acme\u001eInc', 'Acme, "the" company', '']
    const id = (await db.insertInto('brand').values({ workspace_id: workspaceId, id: crypto.randomUUID(), name: 'Acme', aliases }).returning('id').executeTakeFirstOrThrow()).id
    expect(await loadBrandTerms(db, workspaceId)).toEqual([{ id, name: 'Acme', aliases, domain: null }])
    const key = `brands:${workspaceId}:${await brandListFingerprint(db, workspaceId)}`
    const first = await loadBrandMatcher(db, workspaceId)
    expect(matcherCache.get(key)).toBe(first)
    await db
      .updateTable('brand')
      .set({ aliases: ['Acme Corp'] })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute()
    expect(await loadBrandMatcher(db, workspaceId)).not.toBe(first)
    expect(matcherCache.get(key)).toBeUndefined()
  })
})
