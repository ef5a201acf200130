// Times `rebuildRollups` for a dataset's main workspace at two work_mem settings in the
// same run (the server default first, as the yardstick), checking both give the same rows:
//   DATABASE_URL=postgres://… npx tsx bench/rollup-rebuild.ts --dataset bench/.dataset-1m.json [--work-mem 256MB]
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { openDatabase } from '../src/db/database.js'
import { rebuildRollups, ROLLUP_TABLES } from '../src/rollups/index.js'

const { values } = parseArgs({
  options: { dataset: { type: 'string', default: 'bench/.dataset.json' }, 'work-mem': { type: 'string' }, skip: { type: 'boolean', default: false } },
})
const dataset = JSON.parse(readFileSync(values.dataset, 'utf8')) as { workspace_id: string }
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: './bench-data', databasePoolSize: 1 })
const db = database.db
const digest = async () => {
  const parts: string[] = []
  for (const table of ROLLUP_TABLES) {
    const row = await sql<{
      n: string
      h: string
    }>`select count(*) as n, md5(string_agg(t::text, ',' order by t::text)) as h from ${sql.table(table)} t where workspace_id = ${dataset.workspace_id}`.execute(db)
    parts.push(`${table}:${row.rows[0].n}:${row.rows[0].h}`)
  }
  return parts
}
const run = async (label: string, workMem: string | undefined) => {
  if (workMem) await sql`select set_config('work_mem', ${workMem}, false)`.execute(db)
  else await sql`reset work_mem`.execute(db)
  const t = performance.now()
  await rebuildRollups(db, dataset.workspace_id)
  const seconds = Math.round((performance.now() - t) / 100) / 10
  console.log(`${label}: rebuild in ${seconds} s`)
  return { seconds, digest: await digest() }
}
const a = values.skip ? undefined : await run('default work_mem', undefined)
const b = values['work-mem'] ? await run(`work_mem ${values['work-mem']}`, values['work-mem']) : undefined
if (a && b) console.log(a.digest.join() === b.digest.join() ? 'same rows' : `DIFFERENT rows:\n${a.digest.join('\n')}\n---\n${b.digest.join('\n')}`)
await database.close()
