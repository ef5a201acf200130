// `beacon rollups rebuild` in a child process against an embedded database: rollups that
// drifted from the facts (edited here by hand) are recomputed, for one workspace or all.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { cliSandbox } from '../helpers/cli.js'
import { openDatabase } from '../../src/db/database.js'
import { loadConfig } from '../../src/config.js'
import { ROLLUP_TABLES } from '../../src/rollups/index.js'

const { dataDir, beacon, json } = cliSandbox('beacon-rollups', 60_000)

/** The embedded database the CLI uses, opened between commands (one process at a time). */
async function withEmbedded<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>): Promise<T> {
  const database = await openDatabase({ ...loadConfig({}), databaseUrl: undefined, dataDir })
  try {
    return await fn(database.db)
  } finally {
    await database.close()
  }
}

const mentionTotals = (db: Parameters<Parameters<typeof withEmbedded>[0]>[0], workspaceId: string) =>
  sql<{ rolled: number | string | null; facts: number | string | null }>`
    select (select sum(occurrences) from monthly_brand_totals where workspace_id = ${workspaceId}) as rolled,
           (select sum(occurrences) from mention where workspace_id = ${workspaceId}) as facts`
    .execute(db)
    .then((r) => ({ rolled: Number(r.rows[0].rolled), facts: Number(r.rows[0].facts) }))

describe('beacon rollups rebuild', () => {
  it('recomputes drifted rollups from the facts, for one workspace or every one', async () => {
    const workspaces = ['Acme', 'Globex'].map((name) => json(beacon('workspace', 'create', '--name', name, '--tier', 'premium', '--json')))
    for (const name of ['Acme', 'Globex']) {
      const prompt = json(beacon('prompt', 'add', '--workspace', name, '--text', 'Best CRM?', '--json'))
      json(beacon('brand', 'add', '--workspace', name, '--name', 'Acme', '--domain', 'acme.com', '--json'))
      const file = join(dataDir, `${name}.jsonl`)
      const line = (id: string, day: string) =>
        JSON.stringify({
          external_id: id,
          prompt_id: prompt.id,
          provider: 'openai',
          model: 'gpt-4o',
          content: 'Acme is great, Acme twice. https://acme.com/a',
          created_at: `${day}T10:00:00Z`,
        })
      writeFileSync(file, [line('a', '2026-05-01'), line('b', '2026-05-02'), line('c', '2026-06-01')].join('\n'))
      json(beacon('import', 'responses', file, '--workspace', name, '--json'))
    }
    // Drift: double one workspace's monthly totals, wipe the other's daily URL stats.
    await withEmbedded(async (db) => {
      expect(await mentionTotals(db, workspaces[0].id)).toEqual({ rolled: 6, facts: 6 })
      await sql`update monthly_brand_totals set occurrences = occurrences * 2 where workspace_id in (${workspaces[0].id}, ${workspaces[1].id})`.execute(db)
      await sql`delete from daily_url_stats where workspace_id = ${workspaces[1].id}`.execute(db)
    })

    const one = json(beacon('rollups', 'rebuild', '--workspace', 'Acme', '--json'))
    expect(one.workspaces).toEqual([{ id: workspaces[0].id, name: 'Acme' }])
    expect(one.tables).toContain('monthly_brand_totals')
    await withEmbedded(async (db) => {
      expect(await mentionTotals(db, workspaces[0].id)).toEqual({ rolled: 6, facts: 6 })
      expect(await mentionTotals(db, workspaces[1].id)).toEqual({ rolled: 12, facts: 6 }) // untouched
    })

    const all = beacon('rollups', 'rebuild')
    expect(all.code, all.stderr).toBe(0)
    expect(all.stdout).toContain(`Rebuilt ${ROLLUP_TABLES.length} rollup tables for 2 workspaces`)
    await withEmbedded(async (db) => {
      expect(await mentionTotals(db, workspaces[1].id)).toEqual({ rolled: 6, facts: 6 })
      const { rows } = await sql<{ n: string }>`select count(*) as n from daily_url_stats where workspace_id = ${workspaces[1].id}`.execute(db)
      expect(Number(rows[0].n)).toBe(3)
    })

    const unknown = beacon('rollups', 'rebuild', '--workspace', 'Nope')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('No workspace "Nope"')
  }, 400_000)
})
