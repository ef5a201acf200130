// The brand record of spec 2.3. Nullable columns become "" because the spec types
// domain and icon_url as plain strings.
import type { Selectable } from 'kysely'
import type { BrandTable } from '../../db/schema.js'

export interface BrandRecord {
  id: string
  name: string
  domain: string
  icon_url: string
  is_primary: boolean
  is_active: boolean
}

export const brandRecordColumns = ['id', 'name', 'domain', 'icon_url', 'is_primary', 'is_active'] as const

type BrandRow = Pick<Selectable<BrandTable>, (typeof brandRecordColumns)[number]>

export const toBrandRecord = (row: BrandRow): BrandRecord => ({
  id: row.id,
  name: row.name,
  domain: row.domain ?? '',
  icon_url: row.icon_url ?? '',
  is_primary: row.is_primary,
  is_active: row.is_active,
})
