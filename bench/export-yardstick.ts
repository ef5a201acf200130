// The yardstick of the export benchmarks (issue 32: "exports at COPY speed"): PostgreSQL's
// own COPY of the chat-responses rows (the same rows, joins and order as the export, without
// its cell formatting), run by psql with stdout counted by `wc -c`, so the client costs
// next to nothing. bench/run.ts and bench/export-throughput.ts --dataset both use it.
import { spawnSync } from 'node:child_process'
import { addDays } from '../src/core/date-range.js'

/** COPY of a workspace's responses from `from` to `to` (days, inclusive), as CSV with a header. */
export function yardstickCopySql(workspaceId: string, from: string, to: string): string {
  return `copy (select r.id, r.provider, r.model, r.prompt_id, p.text, r.content,
      coalesce((select json_agg(b.name order by m.position, b.name) from mention m join brand b on b.workspace_id = m.workspace_id and b.id = m.brand_id where m.workspace_id = r.workspace_id and m.response_id = r.id), '[]'::json),
      r.sentiment, r.created_at
    from response r join prompt p on p.workspace_id = r.workspace_id and p.id = r.prompt_id
    where r.workspace_id = '${workspaceId}' and r.created_at >= '${from}' and r.created_at < '${addDays(to, 1)}'
    order by r.created_at, r.id) to stdout with csv header`
}

/** Runs the yardstick COPY through psql and counts its bytes: seconds and bytes. */
export function runYardstickCopy(databaseUrl: string, copySql: string): { seconds: number; bytes: number } {
  const started = performance.now()
  const copy = spawnSync('bash', ['-c', `set -o pipefail; psql "${databaseUrl}" -X -qAt -v ON_ERROR_STOP=1 -c "${copySql.replace(/\s+/g, ' ').replace(/"/g, '\\"')}" | wc -c`], {
    encoding: 'utf8',
    maxBuffer: 1e6,
  })
  const seconds = (performance.now() - started) / 1000
  if (copy.status !== 0) throw new Error(`yardstick COPY failed: ${copy.stderr}`)
  return { seconds, bytes: Number(copy.stdout.trim()) }
}
