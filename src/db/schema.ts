// Kysely table types. Every tenant table leads with workspace_id (DESIGN §2: Citus,
// distributed by workspace), and foreign keys carry it too.
import type { ColumnType, Generated } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>
type CreatedAt = ColumnType<Date, Date | string | undefined, never>
// Generated<Timestamp> would lose the string-on-write allowance; spell it out.


export type Tier = 'basic' | 'premium'
export type DiscoveryStatus = 'confirmed' | 'suggested' | 'rejected'

export interface WorkspaceTable {
  id: string
  name: string
  tier: Tier
  created_at: CreatedAt
  data_version: Generated<number>
}

export interface ApiKeyTable {
  workspace_id: string
  id: string
  name: Generated<string>
  /** first characters of the key, for people to recognise it in lists */
  key_prefix: string
  /** hex SHA-256 of the full key; the key itself is never stored */
  key_hash: string
  scopes: string[]
  created_at: CreatedAt
  expires_at: Timestamp | null
  revoked_at: Timestamp | null
  last_used_at: Timestamp | null
}

export interface ProviderTable {
  id: string
  name: string
}

export interface ModelTable {
  workspace_id: string
  id: string
  provider: string
  name: string
  created_at: CreatedAt
}

export interface BrandTable {
  workspace_id: string
  id: string
  name: string
  domain: string | null
  aliases: Generated<string[]>
  icon_url: string | null
  is_primary: Generated<boolean>
  is_active: Generated<boolean>
  discovery_status: Generated<DiscoveryStatus>
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface PromptTable {
  workspace_id: string
  id: string
  text: string
  tags: Generated<string[]>
  is_active: Generated<boolean>
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface ResponseTable {
  workspace_id: string
  id: string
  prompt_id: string
  provider: string
  model: string
  content: string
  created_at: Timestamp
  external_id: string | null
  sentiment: number | null
  ingested_at: CreatedAt
}

/** One row per (response, brand) mentioned; the response's filter columns sit beside the measures. */
export interface MentionTable {
  workspace_id: string
  response_id: string
  brand_id: string
  prompt_id: string
  provider: string
  model: string
  created_at: Timestamp
  occurrences: number
  position: number
  sentiment: number | null
}

/** One row per (response, normalized url). */
export interface CitationTable {
  workspace_id: string
  response_id: string
  url: string
  domain: string
  title: Generated<string>
  prompt_id: string
  provider: string
  model: string
  created_at: Timestamp
}

export interface AioObservationTable {
  workspace_id: string
  id: string
  prompt_id: string
  observed_at: Timestamp
  has_aio: boolean
  overview_text: string | null
  external_id: string | null
  ingested_at: CreatedAt
}

export interface AioAppearanceTable {
  workspace_id: string
  observation_id: string
  brand_id: string
  prompt_id: string
  observed_at: Timestamp
  position: number
}

export interface ExportLogTable {
  workspace_id: string
  id: Generated<string>
  export_type: string
  created_at: CreatedAt
}

export interface DailyResponseStatsTable {
  workspace_id: string
  day: string
  provider: string
  model: string
  tags: string[]
  responses: number
}

export interface DailyMentionStatsTable {
  workspace_id: string
  day: string
  provider: string
  model: string
  tags: string[]
  brand_id: string
  responses: number
  occurrences: number
  position_sum: number
  /** numeric: exact whatever the order of addition */
  sentiment_sum: number
  sentiment_count: number
}

export type DailyResponseTotalsTable = Omit<DailyResponseStatsTable, 'tags'>
export type DailyBrandTotalsTable = Omit<DailyMentionStatsTable, 'tags'>

export interface WorkspaceDomainTable {
  workspace_id: string
  domain: string
}

export interface Database {
  workspace: WorkspaceTable
  api_key: ApiKeyTable
  provider: ProviderTable
  model: ModelTable
  brand: BrandTable
  prompt: PromptTable
  response: ResponseTable
  mention: MentionTable
  citation: CitationTable
  aio_observation: AioObservationTable
  aio_appearance: AioAppearanceTable
  export_log: ExportLogTable
  daily_response_stats: DailyResponseStatsTable
  daily_mention_stats: DailyMentionStatsTable
  workspace_domain: WorkspaceDomainTable
  daily_response_totals: DailyResponseTotalsTable
  daily_brand_totals: DailyBrandTotalsTable
}
