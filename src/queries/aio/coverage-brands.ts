// The brands an AIO report covers: every active brand, or just the one asked for.
import type { DB } from '../../db/database.js'
import { AppError } from '../../core/errors.js'

export interface CoverageBrand {
  id: string
  name: string
}

/** A target brand of another workspace is 404 (docs/security.md); an inactive one is still reported on. */
export async function getCoverageBrands(db: DB, workspaceId: string, targetBrandId?: string): Promise<CoverageBrand[]> {
  let query = db.selectFrom('brand').select(['id', 'name']).where('workspace_id', '=', workspaceId)
  query = targetBrandId ? query.where('id', '=', targetBrandId) : query.where('is_active', '=', true)
  const brands = await query.orderBy('is_primary', 'desc').orderBy('name').execute()
  if (targetBrandId && brands.length === 0) {
    throw new AppError(404, 'not_found', `No brand ${targetBrandId} in this workspace; GET /api/v1/filters lists its brands`, { param: 'target_brand_id' })
  }
  return brands
}
