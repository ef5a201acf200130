import type { DB } from '../../db/database.js'
import { registrableDomain } from '../../analysis/urls.js'
import type { PageRequest } from '../../core/pagination.js'
import type { AnalyticsFilters } from '../analytics-filters.js'
import type { ReadStrategy } from '../rollup-conditions.js'
import { citedUrlPage } from './url-page.js'

export interface UrlRecord {
  url: string
  domain: string
  title: string
  citation_count: number
  first_cited: Date
  last_cited: Date
}

export interface UrlsOptions extends PageRequest {
  /** a source's domain, as /sources lists it */
  sourceId?: string
}

/**
 * source_id is the domain /sources returns (a registrable domain). A host or URL under
 * it (`www.example.com`, `https://docs.example.com/x`) means the same source.
 */
export function sourceDomain(sourceId: string): string {
  return registrableDomain(sourceId) ?? sourceId.trim().toLowerCase()
}

export async function getUrls(
  db: DB,
  workspaceId: string,
  filters: AnalyticsFilters,
  options: UrlsOptions,
  strategy: ReadStrategy = 'auto',
): Promise<{ urls: UrlRecord[]; totalItems: number }> {
  const scope = options.sourceId === undefined ? {} : { domains: [sourceDomain(options.sourceId)] }
  const { rows, totalItems } = await citedUrlPage(db, workspaceId, filters, scope, options, { days: false, strategy })
  const urls = rows.map((row) => ({
    url: row.url,
    domain: row.domain,
    title: row.title,
    citation_count: row.citation_count,
    first_cited: row.first_cited,
    last_cited: row.last_cited,
  }))
  return { urls, totalItems }
}
