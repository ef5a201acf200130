// Times `rebuildRollups` for a dataset's main workspace, family group by family group (the
// groups bench/generate-data.ts runs at once: the facts each reads), this checkout's code
// against a baseline commit's (its src/ extracted under scratch/, the yardstick measured in
// the same run), alternately, and checks both leave the same rows (a digest of every table):
//   DATABASE_URL=postgres://… npx tsx bench/rollup-rebuild.ts --dataset bench/.dataset-rs.json --baseline f536900 [--rounds 2] [--work-mem 64MB] [--empty]
// Without --empty each run rebuilds over the rows the previous run left (a repair, `beacon
// rollups rebuild`: the difference is written); with --empty each run first deletes the
// group's rows of the workspace and vacuums, so the rebuild fills empty tables as
// bench:data's rollup phase does.
// Prints and writes (bench/results/rollup-rebuild.json, --out) each run's seconds per group and
// per statement (the tables a statement fills, timed between rebuildRollups' onTable calls)
// and each table's rows. The rebuild rewrites the workspace's rollups: run it on a database
// of your own, not on one others read.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { openDatabase } from '../src/db/database.js'
import { FAMILIES, familyTables, rebuildRollups, type FamilyName } from '../src/rollups/index.js'

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'bench/.dataset.json' },
    baseline: { type: 'string' },
    'work-mem': { type: 'string' },
    rounds: { type: 'string', default: '1' },
    out: { type: 'string', default: 'bench/results/rollup-rebuild.json' },
    // Only these groups (comma-separated: mention, citation, response).
    groups: { type: 'string', default: 'mention,citation,response' },
    // Rebuild into tables without the workspace's rows (bench:data), not over them.
    empty: { type: 'boolean', default: false },
  },
})
const dataset = JSON.parse(readFileSync(values.dataset, 'utf8')) as { workspace_id: string }
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: './bench-data', databasePoolSize: 1 })
const db = database.db
const setWorkMem = async (target: typeof db) => {
  if (values['work-mem']) await sql`select set_config('work_mem', ${values['work-mem']}, false)`.execute(target)
}
await setWorkMem(db)
const workMem = (await sql<{ work_mem: string }>`show work_mem`.execute(db)).rows[0].work_mem

type Rebuild = (workspaceId: string, families: FamilyName[], onTable: (table: string) => void) => Promise<void>
const modes: { label: string; rebuild: Rebuild; close?: () => Promise<void> }[] = []
if (values.baseline) {
  // The baseline's own modules (engine, families, database) from its commit; node_modules shared.
  const rev = execFileSync('git', ['rev-parse', '--short', values.baseline], { encoding: 'utf8' }).trim()
  const dir = resolve(`scratch/rollup-baseline-${rev}`)
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true })
    execFileSync('sh', ['-c', `git archive ${rev} src | tar -x -C ${dir}`])
    symlinkSync(resolve('node_modules'), `${dir}/node_modules`)
  }
  const base = (await import(`${dir}/src/db/database.ts`)) as typeof import('../src/db/database.js')
  const baseRollups = (await import(`${dir}/src/rollups/index.ts`)) as typeof import('../src/rollups/index.js')
  const baseDatabase = await base.openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: './bench-data', databasePoolSize: 1 })
  await setWorkMem(baseDatabase.db)
  modes.push({
    label: `baseline ${rev}`,
    rebuild: (ws, families, onTable) => baseRollups.rebuildRollups(baseDatabase.db, ws, { families, onTable }),
    close: () => baseDatabase.close(),
  })
}
modes.push({ label: 'this checkout', rebuild: (ws, families, onTable) => rebuildRollups(db, ws, { families, onTable }) })

// The numbering tables are kept (rebuilt only for new URLs); the rest in the three groups.
const groups = (['mention', 'citation', 'response'] as const)
  .filter((facts) => values.groups.split(',').includes(facts))
  .map((facts) => ({
    facts,
    families: FAMILIES.filter((f) => !f.stableIds && f.facts === facts).map((f) => f.name as FamilyName),
  }))
const tablesOf = (families: readonly FamilyName[]) => FAMILIES.filter((f) => families.includes(f.name)).flatMap((f) => familyTables(f))

const digest = async (families: readonly FamilyName[]) => {
  const parts: string[] = []
  const rows: Record<string, number> = {}
  for (const table of tablesOf(families)) {
    const row = await sql<{
      n: string
      h: string
    }>`select count(*) as n, md5(string_agg(t::text, ',' order by t::text)) as h from ${sql.table(table)} t where workspace_id = ${dataset.workspace_id}`.execute(db)
    parts.push(`${table}:${row.rows[0].n}:${row.rows[0].h}`)
    rows[table] = Number(row.rows[0].n)
  }
  return { text: parts.join('\n'), rows }
}

const round1 = (x: number) => Math.round(x * 10) / 10
const results: { round: number; mode: string; group: string; seconds: number; statements: Record<string, number> }[] = []
const digests = new Map<string, string>()
const rowCounts: Record<string, number> = {}
let same = true
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const group of groups) {
    // Alternate which mode goes first, so a cache warmed by one does not always favour the other.
    for (const mode of round % 2 === 1 ? modes : [...modes].reverse()) {
      // Each run starts from tables without the dead rows of the previous one (a rebuild
      // deletes and inserts every row; unvacuumed, the next one's unique checks visit them).
      for (const table of tablesOf(group.families)) {
        if (values.empty) await sql`delete from ${sql.table(table)} where workspace_id = ${dataset.workspace_id}`.execute(db)
        await sql`vacuum ${sql.table(table)}`.execute(db)
      }
      const started = performance.now()
      let last = started
      const statements: Record<string, number> = {}
      let burst: string[] = []
      await mode.rebuild(dataset.workspace_id, group.families, (table) => {
        // rebuildRollups reports the tables a statement filled one after another when it ends:
        // a call long after the previous one starts the next statement's tables.
        const now = performance.now()
        if (now - last > 50) {
          burst = [table]
          statements[table] = round1((now - last) / 1000)
        } else {
          const seconds = statements[burst.join('+')]
          delete statements[burst.join('+')]
          burst.push(table)
          statements[burst.join('+')] = seconds
        }
        last = now
      })
      const seconds = round1((performance.now() - started) / 1000)
      results.push({ round, mode: mode.label, group: group.facts, seconds, statements })
      console.log(`round ${round}, ${group.facts} group (${group.families.length} families), ${mode.label}: ${seconds} s ${JSON.stringify(statements)}`)
      const rows = await digest(group.families)
      Object.assign(rowCounts, rows.rows)
      const before = digests.get(group.facts)
      if (before !== undefined && before !== rows.text) {
        same = false
        console.log(`DIFFERENT rows in the ${group.facts} group:\n${before}\n---\n${rows.text}`)
      }
      digests.set(group.facts, rows.text)
    }
  }
}
const total = (mode: string) => round1(results.filter((r) => r.mode === mode).reduce((n, r) => n + r.seconds, 0))
const summary = {
  target: values.empty ? 'empty tables' : 'existing rows',
  work_mem: workMem,
  rounds: Number(values.rounds),
  results,
  totals: Object.fromEntries(modes.map((m) => [m.label, total(m.label)])),
  rows: rowCounts,
  same_rows: same,
}
console.log(JSON.stringify(summary.totals), same ? 'same rows' : 'DIFFERENT rows')
writeFileSync(values.out, `${JSON.stringify(summary, null, 2)}\n`)
for (const mode of modes) await mode.close?.()
await database.close()
