// The common export parameters of spec 4.2 (date_from, date_to required; models, tags)
// turned into the filters the analytics queries share. Exports take no model_ids.
import { rangeBounds, resolveDateRange } from '../core/date-range.js'
import type { ExportFilters } from './export-types.js'

export interface ExportQuery {
  date_from: string
  date_to: string
  models?: string[]
  tags?: string[]
  has_content?: boolean
  excel_compatible?: boolean
  include_type_hints?: boolean
}

export function resolveExportFilters(query: ExportQuery): ExportFilters {
  const range = resolveDateRange({ start: query.date_from, end: query.date_to }, { start: 'date_from', end: 'date_to' })
  const { from, to } = rangeBounds(range)
  return { range, from, to, providers: query.models ?? [], modelIds: [], tags: query.tags ?? [], hasContent: query.has_content }
}
