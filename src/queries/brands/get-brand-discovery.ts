// The discovery evidence of one brand (DESIGN §17): why competitor discovery proposed it.
// Brands configured by hand have none (undefined).
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

export async function getBrandDiscovery(db: DB, workspaceId: string, brandId: string): Promise<BrandDiscoveryEvidence | undefined> {
  const row = await db
    .selectFrom('brand_discovery')
    .select(['responses', 'first_seen', 'last_seen', 'score', 'signals', 'examples', 'updated_at'])
    .where('workspace_id', '=', workspaceId)
    .where('brand_id', '=', brandId)
    .executeTakeFirst()
  if (!row) return undefined
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
