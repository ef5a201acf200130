// sources-citations: one row per (response, normalized url) in range (docs/exports.md).
import { sql } from 'kysely'
import type { DB } from '../../db/database.js'
import type { ExportDefinition, ExportFilters, ExportRow } from '../export-types.js'
import { isoDateTime, keysetAfter } from '../sql-fragments.js'
import { responseFilterConditions } from '../../queries/analytics-filters.js'
import { measureWith } from './measure-rows.js'

const columns = [
  { name: 'url', type: 'string', nullable: false, description: 'Cited URL, normalized (lowercase host, no www., utm_*/gclid/fbclid parameters or fragment)' },
  { name: 'domain', type: 'string', nullable: false, description: 'Registrable domain of the URL' },
  { name: 'title', type: 'string', nullable: true, description: 'Page title when the provider gave one; empty otherwise' },
  { name: 'response_id', type: 'uuid', nullable: false, description: 'ID of the citing response' },
  { name: 'provider', type: 'string', nullable: false, description: 'AI provider of the citing response' },
  { name: 'citation_date', type: 'datetime', nullable: false, description: 'created_at of the citing response, ISO 8601 UTC' },
] as const satisfies ExportDefinition['columns']

function rows(db: DB, workspaceId: string, filters: ExportFilters) {
  return db
    .selectFrom('citation as c')
    .select(['c.url', 'c.domain', 'c.title', 'c.response_id', 'c.provider', isoDateTime(sql.ref('c.created_at')).as('citation_date')])
    .where(responseFilterConditions('c', workspaceId, filters))
}

export const sourcesCitationsExport: ExportDefinition = {
  type: 'sources-citations',
  title: 'Sources and citations',
  summary: 'One row per URL cited by a response in the period (filtered by provider and prompt tags). Ordered by citation_date, then response_id, then url. CSV only.',
  columns,
  formatOptions: false,
  batchRows: 2000,
  hasContentFilter: false,
  incremental: { supported: true, key: 'citation_date' },

  source(db, workspaceId, filters) {
    const ordered = () =>
      rows(db, workspaceId, filters)
        .orderBy('c.created_at')
        .orderBy('c.response_id')
        .orderBy(sql`c.url collate "C"`)
    return {
      all: () => ordered().compile(),
      page(after: ExportRow | null, limit: number) {
        let query = ordered().select(sql<string>`c.created_at::text`.as('_after_created_at'))
        if (after) {
          query = query.where(
            keysetAfter(
              [sql`c.created_at`, sql`c.response_id`, sql`c.url collate "C"`],
              [sql`${after._after_created_at}::timestamptz`, sql`${after.response_id}::uuid`, sql`${after.url}`],
            ),
          )
        }
        return query.limit(limit).compile()
      },
    }
  },

  measure(db, workspaceId, filters) {
    return measureWith(db, workspaceId, filters, rows(db, workspaceId, filters), columns)
  },
}
