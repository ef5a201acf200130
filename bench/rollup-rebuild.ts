// Times `rebuildRollups` for a dataset's main workspace, family group by family group (the
// groups bench/generate-data.ts runs at once: the facts each reads), one statement over the
// whole workspace (the yardstick: the rebuild before it was cut into months) against a month
// at a time, alternately, and checks both leave the same rows:
//   DATABASE_URL=postgres://… npx tsx bench/rollup-rebuild.ts --dataset bench/.dataset-1m.json [--rounds 1] [--work-mem 512MB]
// Writes bench/.rollup-rebuild.json (--out). The rebuild rewrites the workspace's rollups:
// run it on a database of your own, not on one others read.
import { readFileSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { openDatabase } from '../src/db/database.js'
import { FAMILIES, familyTables, rebuildRollups, type FamilyName } from '../src/rollups/index.js'

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'bench/.dataset.json' },
    'work-mem': { type: 'string' },
    rounds: { type: 'string', default: '1' },
    out: { type: 'string', default: 'bench/.rollup-rebuild.json' },
    // Only these groups (comma-separated: mention, citation, response).
    groups: { type: 'string', default: 'mention,citation,response' },
  },
})
const dataset = JSON.parse(readFileSync(values.dataset, 'utf8')) as { workspace_id: string }
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: './bench-data', databasePoolSize: 1 })
const db = database.db
if (values['work-mem']) await sql`select set_config('work_mem', ${values['work-mem']}, false)`.execute(db)
const workMem = (await sql<{ work_mem: string }>`show work_mem`.execute(db)).rows[0].work_mem

// The numbering tables are kept (rebuilt only for new URLs); the rest in the three groups.
const groups = (['mention', 'citation', 'response'] as const)
  .filter((facts) => values.groups.split(',').includes(facts))
  .map((facts) => ({
    facts,
    families: FAMILIES.filter((f) => !f.stableIds && f.facts === facts).map((f) => f.name as FamilyName),
  }))

const digest = async (families: readonly FamilyName[]) => {
  const parts: string[] = []
  for (const table of FAMILIES.filter((f) => families.includes(f.name)).flatMap((f) => familyTables(f))) {
    const row = await sql<{
      n: string
      h: string
    }>`select count(*) as n, md5(string_agg(t::text, ',' order by t::text)) as h from ${sql.table(table)} t where workspace_id = ${dataset.workspace_id}`.execute(db)
    parts.push(`${table}:${row.rows[0].n}:${row.rows[0].h}`)
  }
  return parts.join('\n')
}

const modes = [
  { label: 'one statement', sliceResponses: Infinity },
  { label: 'a month at a time', sliceResponses: 100_000 },
]
const results: { round: number; mode: string; group: string; seconds: number }[] = []
const digests = new Map<string, string>()
let same = true
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const group of groups) {
    // Alternate which mode goes first, so a cache warmed by one does not always favour the other.
    for (const mode of round % 2 === 1 ? modes : [...modes].reverse()) {
      // Each run starts from tables without the dead rows of the previous one (a rebuild
      // deletes and inserts every row; unvacuumed, the next one's unique checks visit them).
      for (const table of FAMILIES.filter((f) => group.families.includes(f.name as FamilyName)).flatMap((f) => familyTables(f))) await sql`vacuum ${sql.table(table)}`.execute(db)
      const started = performance.now()
      await rebuildRollups(db, dataset.workspace_id, { families: group.families, sliceResponses: mode.sliceResponses })
      const seconds = Math.round((performance.now() - started) / 100) / 10
      results.push({ round, mode: mode.label, group: group.facts, seconds })
      console.log(`round ${round}, ${group.facts} group (${group.families.length} families), ${mode.label}: ${seconds} s`)
      const rows = await digest(group.families)
      const before = digests.get(group.facts)
      if (before !== undefined && before !== rows) {
        same = false
        console.log(`DIFFERENT rows in the ${group.facts} group:\n${before}\n---\n${rows}`)
      }
      digests.set(group.facts, rows)
    }
  }
}
const total = (mode: string) => Math.round(results.filter((r) => r.mode === mode).reduce((n, r) => n + r.seconds, 0) * 10) / 10
const summary = { work_mem: workMem, rounds: Number(values.rounds), results, totals: Object.fromEntries(modes.map((m) => [m.label, total(m.label)])), same_rows: same }
console.log(JSON.stringify(summary.totals), same ? 'same rows' : 'DIFFERENT rows')
writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`)
await database.close()
