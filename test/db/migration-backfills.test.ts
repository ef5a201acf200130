// The frozen SQL backfills of migrations 0007, 0008, 0022, 0023 and 0025 must fill the new rollups exactly as
// the engine's rebuild does: migrate to 0006, store facts (and the 0003/0005 daily rollups
// the ingest of that time kept), migrate to the latest, compare with a rebuild.
import { Migrator, sql, type Migration } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrateToLatest } from '../../src/db/migrate.js'
import * as initialSchema from '../../src/db/migrations/0001-initial-schema.js'
import * as dailyRollups from '../../src/db/migrations/0003-daily-rollups.js'
import * as rowLevelSecurity from '../../src/db/migrations/0004-row-level-security.js'
import * as rollupTotals from '../../src/db/migrations/0005-rollup-totals.js'
import * as dataVersion from '../../src/db/migrations/0006-data-version.js'
import { rebuildRollups } from '../../src/rollups/index.js'
import { expectSameRollups, rollupSnapshot } from '../helpers/rollup-snapshot.js'
import { openScratchDatabase } from '../helpers/scratch-schema.js'
import { testBackends } from '../helpers/test-app.js'

const upTo0006: Record<string, Migration> = {
  '0001-initial-schema': initialSchema,
  '0003-daily-rollups': dailyRollups,
  '0004-row-level-security': rowLevelSecurity,
  '0005-rollup-totals': rollupTotals,
  '0006-data-version': dataVersion,
}

describe.each(testBackends)('migration backfills (%s)', (backend) => {
  it('0007, 0008, 0022, 0023 and 0025 fill the new rollups as a rebuild would', async () => {
    const { database, schema, close } = await openScratchDatabase(backend)
    try {
      const db = database.db
      const migrator = new Migrator({ db, provider: { getMigrations: async () => upTo0006 }, migrationTableSchema: schema ?? 'public' })
      const { error } = await migrator.migrateToLatest()
      expect(error).toBeUndefined()

      const ws = '11111111-1111-4111-8111-111111111111'
      const prompts = ['22222222-2222-4222-8222-000000000001', '22222222-2222-4222-8222-000000000002']
      const brands = ['33333333-3333-4333-8333-000000000001', '33333333-3333-4333-8333-000000000002']
      await sql`insert into workspace (id, name, tier) values (${ws}, 'Old', 'premium')`.execute(db)
      await sql`insert into prompt (workspace_id, id, text, tags) values (${ws}, ${prompts[0]}, 'a', '{x,y}'), (${ws}, ${prompts[1]}, 'b', '{}')`.execute(db)
      await sql`insert into model (workspace_id, id, provider, name) values (${ws}, 'gpt-4o', 'openai', 'gpt-4o'), (${ws}, 'sonar', 'perplexity', 'sonar')`.execute(db)
      await sql`insert into brand (workspace_id, id, name) values (${ws}, ${brands[0]}, 'Acme'), (${ws}, ${brands[1]}, 'Globex')`.execute(db)
      // 40 responses over two months, two providers, both prompts; mentions and citations on most.
      for (let i = 0; i < 40; i++) {
        const id = `44444444-4444-4444-8444-${String(i).padStart(12, '0')}`
        const at = new Date(Date.UTC(2026, 4, 20 + i, 7 + (i % 5), 0, 0))
        const [provider, model] = i % 3 === 0 ? ['perplexity', 'sonar'] : ['openai', 'gpt-4o']
        const prompt = prompts[i % 2]
        await sql`insert into response (workspace_id, id, prompt_id, provider, model, content, created_at) values (${ws}, ${id}, ${prompt}, ${provider}, ${model}, 'x', ${at})`.execute(
          db,
        )
        const facts = sql`${ws}, ${id}, ${prompt}, ${provider}, ${model}, ${at}`
        if (i % 4 !== 3)
          await sql`insert into mention (workspace_id, response_id, prompt_id, provider, model, created_at, brand_id, occurrences, position, sentiment) values (${facts}, ${brands[0]}, ${1 + (i % 3)}, 1, ${i % 5 === 0 ? null : (i % 7) / 10})`.execute(
            db,
          )
        if (i % 2 === 0)
          await sql`insert into mention (workspace_id, response_id, prompt_id, provider, model, created_at, brand_id, occurrences, position, sentiment) values (${facts}, ${brands[1]}, 1, 2, -0.25)`.execute(
            db,
          )
        for (const n of i % 5 === 4 ? [] : [0, 1].slice(0, 1 + (i % 2))) {
          const domain = ['acme.com', 'wiki.org'][(i + n) % 2]
          await sql`insert into citation (workspace_id, response_id, prompt_id, provider, model, created_at, url, domain, title) values (${facts}, ${`https://${domain}/p${i % 6}`}, ${domain}, '')`.execute(
            db,
          )
        }
      }
      // The daily rollups of 0003/0005, as ingestion kept them then.
      await sql`insert into daily_response_stats select r.workspace_id, (r.created_at at time zone 'UTC')::date, r.provider, r.model, p.tags, count(*) from response r join prompt p on p.workspace_id = r.workspace_id and p.id = r.prompt_id group by 1, 2, 3, 4, 5`.execute(
        db,
      )
      await sql`insert into daily_mention_stats select m.workspace_id, (m.created_at at time zone 'UTC')::date, m.provider, m.model, p.tags, m.brand_id, count(*), sum(m.occurrences), sum(m.position), coalesce(sum(m.sentiment::numeric), 0), count(m.sentiment) from mention m join prompt p on p.workspace_id = m.workspace_id and p.id = m.prompt_id group by 1, 2, 3, 4, 5, 6`.execute(
        db,
      )
      await sql`insert into daily_response_totals select workspace_id, day, provider, model, sum(responses) from daily_response_stats group by 1, 2, 3, 4`.execute(db)
      await sql`insert into daily_brand_totals select workspace_id, day, provider, model, brand_id, sum(responses), sum(occurrences), sum(position_sum), sum(sentiment_sum), sum(sentiment_count) from daily_mention_stats group by 1, 2, 3, 4, 5`.execute(
        db,
      )
      await sql`insert into workspace_domain select distinct workspace_id, domain from citation`.execute(db)

      await migrateToLatest(db)
      const migrated = await rollupSnapshot(db, ws)
      for (const table of [
        'monthly_mention_stats',
        'monthly_brand_totals',
        'daily_url_stats',
        'quarterly_url_stats',
        'yearly_url_stats',
        'monthly_domain_stats',
        'domain_prompt_days',
        'url_provider_days',
        'prompt_days',
        'daily_brand_domain_stats',
        'daily_prompt_brand_stats',
        // 0023: one row per tag of the {x,y} prompt and '{}' rows for the untagged one
        'domain_tag_days',
        // 0025: the prompt's own rollups for GET /prompts/{id}
        'daily_prompt_response_stats',
        'daily_prompt_mention_stats',
        'monthly_prompt_mention_stats',
        'daily_prompt_mentioned_responses',
        'daily_prompt_domain_stats',
        'monthly_prompt_domain_stats',
      ]) {
        expect(migrated[table].length, table).toBeGreaterThan(0)
      }
      await rebuildRollups(db, ws)
      expectSameRollups(await rollupSnapshot(db, ws), migrated, expect)
    } finally {
      await close()
    }
  }, 120_000)
})
