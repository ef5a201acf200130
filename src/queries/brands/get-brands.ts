// The brand list of spec 4.1 (`competitors`): every brand matching the filters, the
// primary one included and listed first, then by name.
import { sql } from 'kysely'
import type { DB } from '../../db/database.js'
import type { DiscoveryStatus } from '../../db/schema.js'
import { pageOffset, type PageRequest } from '../../core/pagination.js'
import { brandRecordColumns, toBrandRecord, type BrandRecord } from './brand-record.js'

export interface BrandListFilters {
  isActive: boolean
  discoveryStatus?: DiscoveryStatus
}

export async function getBrands(db: DB, workspaceId: string, filters: BrandListFilters, page: PageRequest): Promise<{ brands: BrandRecord[]; totalItems: number }> {
  let base = db.selectFrom('brand').where('workspace_id', '=', workspaceId).where('is_active', '=', filters.isActive)
  if (filters.discoveryStatus) base = base.where('discovery_status', '=', filters.discoveryStatus)

  const [rows, total] = await Promise.all([
    base
      .select([...brandRecordColumns])
      .orderBy('is_primary', 'desc')
      // Byte order, not the server's collation, so both backends page alike.
      .orderBy(sql`lower(name) collate "C"`)
      .orderBy('id')
      .limit(page.perPage)
      .offset(pageOffset(page))
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return { brands: rows.map(toBrandRecord), totalItems: Number(total.n) }
}
