// Builds the weekly digest of a workspace (docs/agents-and-notifications.md): the last seven
// whole UTC days against the seven before. Per brand it reuses the dashboard's own queries
// (the same numbers the overview shows) with the opt-in uncertainty, so the digest never
// disagrees with the page it links to.
import { sql } from 'kysely'
import type { DB } from '../db/database.js'
import { addDays, previousRange, rangeBounds, type DateRange } from '../core/date-range.js'
import { getDashboard } from '../queries/dashboard/get-dashboard.js'
import { getDashboardUncertainty } from '../queries/dashboard/get-dashboard-uncertainty.js'
import { roundScore } from '../queries/rounding.js'
import type { AnalyticsFilters } from '../queries/analytics-filters.js'
import type { Digest, DigestBrand, DigestRunHealth, DigestSource } from './digest.js'

/** How many of the period's most cited domains are looked at for new ones. */
const TOP_SOURCES = 10

/** The seven whole UTC days before `now`'s day. */
export function digestPeriod(now: Date): DateRange {
  const today = now.toISOString().slice(0, 10)
  return { start: addDays(today, -7), end: addDays(today, -1) }
}

/** The dashboard over the period, when the server knows its public address. */
export function dashboardLink(publicUrl: string | undefined, range: DateRange): string | null {
  if (!publicUrl) return null
  return `${publicUrl}/?start_date=${range.start}&end_date=${range.end}`
}

export async function buildDigest(db: DB, workspaceId: string, options: { now?: Date; publicUrl?: string } = {}): Promise<Digest> {
  const range = digestPeriod(options.now ?? new Date())
  const previous = previousRange(range)
  const filters: AnalyticsFilters = { range, ...rangeBounds(range), providers: [], modelIds: [], tags: [] }
  const [workspace, dashboard, uncertainty, ids, sources, runHealth] = await Promise.all([
    db.selectFrom('workspace').select(['id', 'name']).where('id', '=', workspaceId).executeTakeFirstOrThrow(),
    getDashboard(db, workspaceId, filters),
    getDashboardUncertainty(db, workspaceId, filters),
    db.selectFrom('brand').select(['id', 'name', 'is_primary']).where('workspace_id', '=', workspaceId).where('is_active', '=', true).execute(),
    newTopSources(db, workspaceId, range, previous),
    runs(db, workspaceId, range),
  ])
  const byName = new Map(ids.map((brand) => [brand.name, brand]))
  const brands: DigestBrand[] = []
  for (const [name, metrics] of Object.entries(dashboard.brands)) {
    const brand = byName.get(name)
    const extra = uncertainty.get(name)
    if (!brand || !extra) continue
    brands.push({
      id: brand.id,
      name,
      is_primary: brand.is_primary,
      visibility_score: metrics.visibility_score,
      visibility_ci: extra.visibility_ci,
      responses: extra.responses,
      previous_visibility_score: roundScore(metrics.visibility_score - extra.visibility_test.delta),
      visibility_test: extra.visibility_test,
      share_of_voice: dashboard.total_mentions > 0 ? roundScore((100 * metrics.mention_count) / dashboard.total_mentions) : 0,
      mention_count: metrics.mention_count,
    })
  }
  return {
    workspace: { id: workspace.id, name: workspace.name },
    period: range,
    previous_period: previous,
    // Every brand's rate is over the same responses; without brands the count is still known.
    responses: [...uncertainty.values()][0]?.responses ?? 0,
    brands,
    new_top_sources: sources,
    run_health: runHealth,
    dashboard_url: dashboardLink(options.publicUrl, range),
  }
}

/** Among the period's most cited domains (by responses citing them), those no response cited in the previous period. */
async function newTopSources(db: DB, workspaceId: string, range: DateRange, previous: DateRange): Promise<DigestSource[]> {
  const now = rangeBounds(range)
  const before = rangeBounds(previous)
  const { rows } = await sql<{ domain: string; citations: string | number }>`
    with top as (
      select c.domain, count(distinct c.response_id) as citations
      from citation c
      where c.workspace_id = ${workspaceId} and c.created_at >= ${now.from} and c.created_at < ${now.to}
      group by c.domain
      order by citations desc, c.domain
      limit ${TOP_SOURCES}
    )
    select t.domain, t.citations from top t
    where not exists (
      select 1 from citation p
      where p.workspace_id = ${workspaceId} and p.domain = t.domain and p.created_at >= ${before.from} and p.created_at < ${before.to}
    )
    order by t.citations desc, t.domain`.execute(db)
  return rows.map((row) => ({ domain: row.domain, citations: Number(row.citations) }))
}

/** Collection runs started in the period and how their answers ended. */
async function runs(db: DB, workspaceId: string, range: DateRange): Promise<DigestRunHealth> {
  const { from, to } = rangeBounds(range)
  const row = await db
    .selectFrom('collection_run')
    .select((eb) => [
      eb.fn.countAll<string>().as('runs'),
      sql<string>`count(*) filter (where state = 'succeeded')`.as('succeeded'),
      sql<string>`count(*) filter (where state = 'failed')`.as('failed'),
      sql<string>`coalesce(sum(succeeded), 0)`.as('answers_succeeded'),
      sql<string>`coalesce(sum(failed), 0)`.as('answers_failed'),
      sql<Date | null>`max(created_at)`.as('last_run_at'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirstOrThrow()
  return {
    runs: Number(row.runs),
    succeeded: Number(row.succeeded),
    failed: Number(row.failed),
    answers_succeeded: Number(row.answers_succeeded),
    answers_failed: Number(row.answers_failed),
    last_run_at: row.last_run_at ? new Date(row.last_run_at).toISOString() : null,
  }
}
