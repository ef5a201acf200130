import type { DB } from '../../db/database.js'
import type { PageRequest } from '../../core/pagination.js'
import type { AnalyticsFilters } from '../analytics-filters.js'
import type { DailyCount } from '../sources/daily-chart.js'
import { ensurePromptTemplate } from '../sources/ensure-prompt-template.js'
import type { ReadStrategy } from '../rollup-conditions.js'
import type { UrlRecord } from './get-urls.js'
import { citedUrlPage } from './url-page.js'

export interface DetailedUrlRecord extends UrlRecord {
  daily_chart: DailyCount[]
  providers_citing: string[]
}

export interface UrlsDetailedOptions extends PageRequest {
  promptId?: string
}

export async function getUrlsDetailed(
  db: DB,
  workspaceId: string,
  filters: AnalyticsFilters,
  options: UrlsDetailedOptions,
  strategy: ReadStrategy = 'auto',
): Promise<{ urls: DetailedUrlRecord[]; totalItems: number }> {
  const scope = { promptId: options.promptId }
  const [, { rows, totalItems, charts }] = await Promise.all([
    ensurePromptTemplate(db, workspaceId, options.promptId),
    citedUrlPage(db, workspaceId, filters, scope, options, { days: true, strategy }),
  ])
  const urls = rows.map((row) => ({
    url: row.url,
    domain: row.domain,
    title: row.title,
    citation_count: row.citation_count,
    first_cited: row.first_cited,
    last_cited: row.last_cited,
    daily_chart: charts.get(row.url) ?? [],
    providers_citing: row.providers,
  }))
  return { urls, totalItems }
}
