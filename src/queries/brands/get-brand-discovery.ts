// The discovery evidence of one brand (docs/uncertainty-and-discovery.md): why competitor discovery proposed it.
// Brands configured by hand have none.
import type { DB } from '../../db/database.js'

export interface BrandDiscoveryEvidence {
  responses: number
  first_seen: string
  last_seen: string
  score: number
  signals: Record<string, number>
  examples: { response_id: string; snippet: string; cue: string }[]
  updated_at: string
}

/** The brand's evidence row (none for brands configured by hand); read with the brand detail. */
export function brandDiscoverySelect(db: DB, workspaceId: string, brandId: string) {
  return db
    .selectFrom('brand_discovery')
    .select(['responses', 'first_seen', 'last_seen', 'score', 'signals', 'examples', 'updated_at'])
    .where('workspace_id', '=', workspaceId)
    .where('brand_id', '=', brandId)
}

/** Timestamps arrive as Date from a plain select and as ISO text through select-together. */
export function toBrandDiscovery(row: {
  responses: number
  first_seen: Date | string
  last_seen: Date | string
  score: number | string
  signals: Record<string, number>
  examples: BrandDiscoveryEvidence['examples']
  updated_at: Date | string
}): BrandDiscoveryEvidence {
  return {
    responses: row.responses,
    first_seen: new Date(row.first_seen).toISOString(),
    last_seen: new Date(row.last_seen).toISOString(),
    score: Number(row.score),
    signals: row.signals,
    examples: row.examples,
    updated_at: new Date(row.updated_at).toISOString(),
  }
}
