// Migration 0026 swaps the fact tables' covering indexes for narrow ones with the same keys
// (issue 32). On a populated schema: up gives the narrow definitions, down restores the old
// ones exactly, and the computed (facts) reads that used them answer the same either way.
// On a populated table each narrow index must still serve its lookup when the planner is
// pushed off sequential scans (the key, not the INCLUDE list, is what those lookups need).
import { sql, type Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { DB } from '../../src/db/database.js'
import { migrateToLatest } from '../../src/db/migrate.js'
import * as narrowFactIndexes from '../../src/db/migrations/0026-narrow-fact-indexes.js'
import { resolveAnalyticsFilters } from '../../src/queries/analytics-filters.js'
import { getSources } from '../../src/queries/sources/get-sources.js'
import { getUrlsDetailed } from '../../src/queries/urls/get-urls-detailed.js'
import { getUrls } from '../../src/queries/urls/get-urls.js'
import { getPromptDetail } from '../../src/queries/prompts/get-prompt-detail.js'
import { getPromptPerformance } from '../../src/queries/prompts/get-prompt-performance.js'
import { getBrandDetail } from '../../src/queries/brands/get-brand-detail.js'
import { EXPORT_DEFINITIONS } from '../../src/exports/definitions/index.js'
import { rebuildRollups } from '../../src/rollups/index.js'
import { openScratchDatabase } from '../helpers/scratch-schema.js'
import { testBackends } from '../helpers/test-app.js'

const ws = '11111111-1111-4111-8111-111111111111'
const prompts = ['22222222-2222-4222-8222-000000000001', '22222222-2222-4222-8222-000000000002', '22222222-2222-4222-8222-000000000003']
const brands = ['33333333-3333-4333-8333-000000000001', '33333333-3333-4333-8333-000000000002']

const COVERING = {
  citation_domain_facts_idx: '(workspace_id, domain, created_at) INCLUDE (provider, model, prompt_id)',
  mention_facts_idx: '(workspace_id, created_at) INCLUDE (brand_id, provider, model, prompt_id, occurrences, "position", sentiment, response_id)',
  citation_prompt_idx: '(workspace_id, prompt_id, created_at) INCLUDE (domain, url, provider, model, response_id)',
  mention_prompt_idx: '(workspace_id, prompt_id, created_at) INCLUDE (brand_id, provider, model, occurrences, "position", sentiment, response_id)',
  citation_url_idx: '(workspace_id, url, created_at) INCLUDE (title, response_id)',
}
const NARROW = {
  citation_domain_idx: '(workspace_id, domain, created_at)',
  mention_created_idx: '(workspace_id, created_at)',
  citation_prompt_idx: '(workspace_id, prompt_id, created_at)',
  mention_prompt_idx: '(workspace_id, prompt_id, created_at)',
  citation_url_idx: '(workspace_id, url, created_at)',
}
const ALL_NAMES = [...new Set([...Object.keys(COVERING), ...Object.keys(NARROW)])]

/** name → column list of those indexes that exist, from the catalog. */
async function definitions(db: DB): Promise<Record<string, string>> {
  const { rows } = await sql<{ name: string; def: string }>`
    select indexname as name, indexdef as def from pg_indexes
    where schemaname = current_schema() and indexname = any(${ALL_NAMES}::text[])`.execute(db)
  return Object.fromEntries(rows.map((r) => [r.name, r.def.replace(/^.* USING btree /, '')]))
}

/** Facts over three months: three prompts, two providers, two brands, several URLs (some titled) per domain. */
async function seed(db: DB): Promise<void> {
  await sql`insert into workspace (id, name, tier) values (${ws}, 'Indexes', 'premium')`.execute(db)
  await sql`insert into prompt (workspace_id, id, text, tags) values (${ws}, ${prompts[0]}, 'a', '{pricing}'), (${ws}, ${prompts[1]}, 'b', '{}'), (${ws}, ${prompts[2]}, 'c', '{pricing,enterprise}')`.execute(
    db,
  )
  await sql`insert into model (workspace_id, id, provider, name) values (${ws}, 'gpt-4o', 'openai', 'gpt-4o'), (${ws}, 'sonar', 'perplexity', 'sonar')`.execute(db)
  await sql`insert into brand (workspace_id, id, name, is_primary) values (${ws}, ${brands[0]}, 'Acme', true), (${ws}, ${brands[1]}, 'Globex', false)`.execute(db)
  const responses: string[] = []
  const mentions: string[] = []
  const citations: string[] = []
  const q = (value: string) => `'${value}'`
  for (let i = 0; i < 240; i++) {
    const id = `44444444-4444-4444-8444-${String(i).padStart(12, '0')}`
    const at = new Date(Date.UTC(2026, 2, 1) + i * 9 * 3_600_000 + (i % 7) * 60_000).toISOString()
    const [provider, model] = i % 3 === 0 ? ['perplexity', 'sonar'] : ['openai', 'gpt-4o']
    const prompt = prompts[i % 3]
    const facts = [ws, id, prompt, provider, model, at].map(q).join(', ')
    responses.push(`(${facts}, 'answer ${i}')`)
    if (i % 4 !== 3) mentions.push(`(${facts}, ${q(brands[0])}, ${1 + (i % 3)}, 1, ${i % 5 === 0 ? 'null' : ((i % 7) - 3) / 10})`)
    if (i % 2 === 0) mentions.push(`(${facts}, ${q(brands[1])}, 1, 2, -0.25)`)
    for (let n = 0; n < i % 4; n++) {
      const domain = ['acme.com', 'wiki.org', 'news.net'][(i + n) % 3]
      const title = (i + n) % 5 === 0 ? `Page ${i % 6} at ${i}` : ''
      citations.push(`(${facts}, ${q(`https://${domain}/p${(i + n) % 6}`)}, ${q(domain)}, ${q(title)})`)
    }
  }
  await sql.raw(`insert into response (workspace_id, id, prompt_id, provider, model, created_at, content) values ${responses.join(', ')}`).execute(db)
  await sql
    .raw(`insert into mention (workspace_id, response_id, prompt_id, provider, model, created_at, brand_id, occurrences, position, sentiment) values ${mentions.join(', ')}`)
    .execute(db)
  await sql.raw(`insert into citation (workspace_id, response_id, prompt_id, provider, model, created_at, url, domain, title) values ${citations.join(', ')}`).execute(db)
  await rebuildRollups(db, ws)
}

/** Every computed read that used one of the indexes, and the exports, as one comparable value. */
async function reads(db: DB): Promise<unknown> {
  const now = new Date('2026-06-01T00:00:00Z')
  const year = await resolveAnalyticsFilters(db, ws, { start_date: '2026-03-01', end_date: '2026-05-31' }, now)
  const openai = await resolveAnalyticsFilters(db, ws, { start_date: '2026-03-10', end_date: '2026-04-20', models: ['openai'] }, now)
  const tagged = await resolveAnalyticsFilters(db, ws, { start_date: '2026-03-01', end_date: '2026-05-31', tags: ['pricing'], model_ids: ['gpt-4o'] }, now)
  const page = { page: 1, perPage: 10 }
  const out: Record<string, unknown> = {}
  for (const [label, filters] of Object.entries({ year, openai, tagged })) {
    out[`sources ${label}`] = await getSources(db, ws, filters, page, 'facts')
    out[`sources ${label} prompt`] = await getSources(db, ws, filters, { ...page, promptId: prompts[0] }, 'facts')
    out[`urls-detailed ${label}`] = await getUrlsDetailed(db, ws, filters, { ...page, promptId: prompts[2] }, 'facts')
    out[`urls ${label} source`] = await getUrls(db, ws, filters, { ...page, sourceId: 'wiki.org' }, 'facts')
    out[`urls ${label} (title probe)`] = await getUrls(db, ws, filters, page)
    out[`prompts ${label}`] = await getPromptPerformance(db, ws, brands[0], filters, page, 'facts')
    out[`prompt ${label}`] = await getPromptDetail(db, ws, prompts[1], filters, 'facts')
    out[`brand ${label}`] = await getBrandDetail(db, ws, brands[1], filters, 'facts')
    for (const def of EXPORT_DEFINITIONS) out[`export ${def.type} ${label}`] = (await db.executeQuery(def.source(db, ws, filters).all())).rows
  }
  return JSON.parse(JSON.stringify(out))
}

/** The index the planner takes for `statement` when sequential scans are off (a tiny table is otherwise always read whole). */
async function indexFor(db: DB, statement: string): Promise<string> {
  return db.connection().execute(async (conn) => {
    await sql`set enable_seqscan = off`.execute(conn)
    try {
      const { rows } = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${statement}`).execute(conn)
      return rows.map((r) => r['QUERY PLAN']).join('\n')
    } finally {
      await sql`reset enable_seqscan`.execute(conn)
    }
  })
}

describe.each(testBackends)('0026 narrow fact indexes (%s)', (backend) => {
  it('narrows the covering indexes, restores them on down, and the facts reads answer the same', { timeout: 120_000 }, async () => {
    const { database, close } = await openScratchDatabase(backend)
    try {
      const db = database.db
      await migrateToLatest(db)
      await seed(db)
      expect(await definitions(db)).toEqual(NARROW)
      const narrowReads = await reads(db)
      // a read that found nothing would compare equal however the indexes looked
      expect(JSON.stringify(narrowReads)).toContain('wiki.org')
      expect(JSON.stringify(narrowReads)).toContain('Page ')

      await narrowFactIndexes.down(db as unknown as Kysely<unknown>)
      expect(await definitions(db)).toEqual(COVERING)
      expect(await reads(db)).toEqual(narrowReads)

      await narrowFactIndexes.up(db as unknown as Kysely<unknown>)
      expect(await definitions(db)).toEqual(NARROW)
      expect(await reads(db)).toEqual(narrowReads)

      const period = `created_at >= '2026-03-10' and created_at < '2026-04-20'`
      expect(await indexFor(db, `select domain, url from citation where workspace_id = '${ws}' and prompt_id = '${prompts[0]}' and ${period}`)).toContain('citation_prompt_idx')
      expect(await indexFor(db, `select brand_id, occurrences from mention where workspace_id = '${ws}' and prompt_id = '${prompts[0]}' and ${period}`)).toContain(
        'mention_prompt_idx',
      )
      expect(await indexFor(db, `select brand_id, prompt_id from mention where workspace_id = '${ws}' and ${period}`)).toContain('mention_created_idx')
      expect(await indexFor(db, `select provider from citation where workspace_id = '${ws}' and domain = 'wiki.org' and ${period}`)).toContain('citation_domain_idx')
      expect(
        await indexFor(
          db,
          `select title from citation where workspace_id = '${ws}' and url = 'https://wiki.org/p1' and ${period} and title <> '' order by created_at desc limit 1`,
        ),
      ).toContain('citation_url_idx')
    } finally {
      await close()
    }
  })
})
