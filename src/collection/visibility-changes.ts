// `visibility.changed` after a run (docs/agents-and-notifications.md, docs/uncertainty-and-discovery.md): a brand's visibility in this run's
// answers against the previous finished run's, on the prompt × target pairs both runs
// asked (so adding a target or a prompt is not read as a change), tested with the
// two-proportion z-test. Only significant changes are sent: with fewer than 30 answers on
// either side nothing is claimed. Run to run, so a change is announced once, by the run
// that shows it, not again by every later run.
import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import { visibilityChange } from '../analysis/statistics.js'
import type { WebhookEventData } from '../webhooks/events.js'

type Change = WebhookEventData['visibility.changed']

export interface RunSide {
  start_date: string
  end_date: string
  responses: number
}

export interface BrandCounts {
  id: string
  name: string
  /** answers of each side naming the brand */
  current: number
  previous: number
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000

/** Pure: which brands changed significantly between two sides, as event data. */
export function significantChanges(runId: string, current: RunSide, previous: RunSide, brands: readonly BrandCounts[]): Change[] {
  if (current.responses === 0 || previous.responses === 0) return []
  const changes: Change[] = []
  for (const brand of brands) {
    const now = brand.current / current.responses
    const before = brand.previous / previous.responses
    const test = visibilityChange({ mentioning: brand.current, responses: current.responses }, { mentioning: brand.previous, responses: previous.responses }, round4(now - before))
    if (test.significant !== true || test.p_value === null) continue
    changes.push({
      run_id: runId,
      brand: { id: brand.id, name: brand.name },
      previous: { ...previous, visibility: round4(before) },
      current: { ...current, visibility: round4(now) },
      change: { delta: test.delta, p_value: test.p_value, significant: true },
    })
  }
  return changes
}

/** The significant changes this finished run shows against the previous finished run of the workspace. */
export async function findVisibilityChanges(db: DB, workspaceId: string, runId: string): Promise<Change[]> {
  const previousRun = await db
    .selectFrom('collection_run as r')
    .select('r.id')
    .where('r.workspace_id', '=', workspaceId)
    .where('r.id', '!=', runId)
    .where('r.state', 'in', ['succeeded', 'failed'])
    .where('r.finished_at', 'is not', null)
    .where('r.created_at', '<=', db.selectFrom('collection_run').select('created_at').where('workspace_id', '=', workspaceId).where('id', '=', runId))
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('collection_answer as a')
          .select(sql`1`.as('one'))
          .whereRef('a.workspace_id', '=', 'r.workspace_id')
          .whereRef('a.run_id', '=', 'r.id')
          .where('a.outcome', '=', 'succeeded'),
      ),
    )
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .executeTakeFirst()
  if (!previousRun) return []

  // Answers of both runs on their common prompt × target pairs, with the brands each names.
  const { rows } = await sql<{ side: 'current' | 'previous'; brand_id: string | null; name: string | null; answers: number; first_day: string; last_day: string }>`
    with answers as (
      select case when a.run_id = ${runId} then 'current' else 'previous' end as side, a.target_id, a.prompt_id, resp.id as response_id, resp.created_at
      from collection_answer a
      join response resp on resp.workspace_id = a.workspace_id and resp.external_id = a.external_id
      where a.workspace_id = ${workspaceId} and a.run_id in (${runId}, ${previousRun.id}) and a.outcome = 'succeeded'
    ),
    common as (
      select target_id, prompt_id from answers where side = 'current'
      intersect
      select target_id, prompt_id from answers where side = 'previous'
    ),
    compared as (
      select x.* from answers x join common c on c.target_id = x.target_id and c.prompt_id = x.prompt_id
    )
    select side, null::uuid as brand_id, null::text as name, count(*)::int as answers,
      to_char(min(created_at) at time zone 'UTC', 'YYYY-MM-DD') as first_day, to_char(max(created_at) at time zone 'UTC', 'YYYY-MM-DD') as last_day
    from compared group by side
    union all
    select x.side, b.id, b.name, count(distinct x.response_id)::int, null, null
    from compared x
    join mention m on m.workspace_id = ${workspaceId} and m.response_id = x.response_id
    join brand b on b.workspace_id = m.workspace_id and b.id = m.brand_id and b.is_active
    group by x.side, b.id, b.name`.execute(db)

  const totals = new Map(rows.filter((r) => r.brand_id === null).map((r) => [r.side, r]))
  const current = totals.get('current')
  const previous = totals.get('previous')
  if (!current || !previous) return []
  const side = (row: typeof current): RunSide => ({ start_date: row.first_day, end_date: row.last_day, responses: row.answers })
  const brands = new Map<string, BrandCounts>()
  // Active brands named on neither side cannot have changed; named on one side only, they count 0 on the other.
  for (const row of rows) {
    if (row.brand_id === null || row.name === null) continue
    const entry = brands.get(row.brand_id) ?? { id: row.brand_id, name: row.name, current: 0, previous: 0 }
    entry[row.side] = row.answers
    brands.set(row.brand_id, entry)
  }
  return significantChanges(
    runId,
    side(current),
    side(previous),
    [...brands.values()].sort((a, b) => a.name.localeCompare(b.name)),
  )
}
