// Kysely table types. Every tenant table leads with workspace_id (docs/architecture.md: Citus,
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

/** One row per distinct web search an engine ran for an answer (query fan-out), in the engine's order. */
export interface SearchQueryTable {
  workspace_id: string
  response_id: string
  /** 1 = the engine's first search for the answer */
  position: number
  /** as the engine sent it */
  query: string
  /** grouping form: NFKC, lower case, spaces collapsed (src/ingest/search-queries.ts) */
  query_key: string
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

// Citation rollups (migration 0007). `days` columns are datemultiranges, read only in SQL.
export interface DailyDomainStatsTable {
  workspace_id: string
  day: string
  domain: string
  citations: number
  responses: number
  last_cited: Timestamp
}

export interface WorkspaceUrlTable {
  workspace_id: string
  id: Generated<string>
  url: string
  domain: string
}

export interface UrlStatsTable {
  workspace_id: string
  url_id: string
  citations: number
  first_cited: Timestamp
  last_cited: Timestamp
}

export interface DailyBrandDomainStatsTable {
  workspace_id: string
  brand_id: string
  day: string
  domain: string
  citations: number
}

export interface PresenceDaysTable {
  workspace_id: string
  days: string
}

export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'

/** Beacon's record of a background job; the id is pg-boss's job id (migration 0011). */
export interface JobTable {
  workspace_id: string
  id: string
  type: string
  state: Generated<JobState>
  progress_done: Generated<number>
  progress_total: Generated<number>
  created_at: CreatedAt
  started_at: Timestamp | null
  finished_at: Timestamp | null
  error_code: string | null
  error_message: string | null
  result: ColumnType<unknown, string | null, string | null> | null
  heartbeat_at: Timestamp | null
}

// Collection (migration 0013, docs/collection.md).
export type TargetKind = 'answer' | 'aio'
export type TargetApi = 'native' | 'openai_compatible' | 'demo'
export type RunTrigger = 'manual' | 'schedule'
export type AnswerOutcome = 'succeeded' | 'failed' | 'duplicate' | 'skipped' | 'refused' | 'incomplete' | 'search_failed' | 'quota_exhausted'

export interface CollectionTargetTable {
  workspace_id: string
  id: string
  kind: Generated<TargetKind>
  provider: string | null
  model: string | null
  api: TargetApi | null
  base_url: string | null
  web_search: Generated<boolean>
  serp: 'serpapi' | 'dataforseo' | null
  locale: string | null
  samples: Generated<number>
  schedule: Generated<string>
  timezone: Generated<string>
  enabled: Generated<boolean>
  /** name of a collection_credential; null: the provider's environment variable */
  credential: string | null
  flagged: Generated<boolean>
  /** the provider error that flagged the target (unauthorized, forbidden) */
  flag_code: string | null
  flag_reason: string | null
  flagged_at: Timestamp | null
  /** the latest schedule slot claimed (a run was created for it) */
  last_scheduled_at: Timestamp | null
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface CollectionCredentialTable {
  workspace_id: string
  name: string
  provider: string
  /** SecretBox.seal(api_key, `credential:<workspace>:<name>`) */
  sealed: string
  last_four: string
  created_at: CreatedAt
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface CollectionRunTable {
  workspace_id: string
  id: string
  state: Generated<JobState>
  trigger: Generated<RunTrigger>
  target_ids: string[] | null
  prompt_ids: string[] | null
  planned: Generated<number>
  planned_at: Timestamp | null
  succeeded: Generated<number>
  failed: Generated<number>
  duplicates: Generated<number>
  skipped: Generated<number>
  /** non-answers (migration 0019, docs/collection.md): counted here, never stored as responses */
  refused: Generated<number>
  incomplete: Generated<number>
  search_failed: Generated<number>
  quota_exhausted: Generated<number>
  tokens_in: ColumnType<string | number, number | undefined, number>
  tokens_out: ColumnType<string | number, number | undefined, number>
  /** numeric: pg returns it as a string */
  cost_usd: ColumnType<string | number, number | undefined, number>
  created_at: CreatedAt
  started_at: Timestamp | null
  finished_at: Timestamp | null
}

export interface CollectionRunErrorTable {
  workspace_id: string
  run_id: string
  target_id: string
  code: string
  message: string
  count: Generated<number>
}

export interface CollectionAnswerTable {
  workspace_id: string
  external_id: string
  run_id: string
  target_id: string
  prompt_id: string
  sample: number
  outcome: AnswerOutcome
  model_served: string | null
  tokens_in: number | null
  tokens_out: number | null
  web_search_calls: number | null
  cost_usd: ColumnType<string | number | null, number | null | undefined, number | null>
  latency_ms: number | null
  raw: ColumnType<unknown, string | null | undefined, string | null> | null
  created_at: CreatedAt
}

/** What the provider sent for one attempt that was not an answer, kept for audit (migration 0019). */
export interface CollectionNonAnswerTable {
  workspace_id: string
  id: string
  run_id: string
  target_id: string
  prompt_id: string
  external_id: string
  sample: number
  attempt: number
  outcome: 'refused' | 'incomplete' | 'search_failed' | 'quota_exhausted' | 'unexpected_stop'
  /** the provider's own field and value, e.g. `stop_reason: refusal` */
  reason: string
  provider: string | null
  model_served: string | null
  tokens_in: Generated<number>
  tokens_out: Generated<number>
  cost_usd: ColumnType<string | number, number | undefined, number>
  raw: ColumnType<unknown, string | null | undefined, string | null> | null
  created_at: CreatedAt
}

export interface CollectionSpendTable {
  workspace_id: string
  day: string
  usd: ColumnType<string | number, number | undefined, number>
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed'

/** A workspace's webhook subscription; the signing secret is sealed with SecretBox (migration 0014). */
export interface WebhookTable {
  workspace_id: string
  id: string
  url: string
  events: string[]
  secret_sealed: string
  active: Generated<boolean>
  created_at: CreatedAt
}

/** One event for one webhook; `payload` is the exact JSON body every attempt sends. */
export interface WebhookDeliveryTable {
  workspace_id: string
  id: string
  webhook_id: string
  event: string
  payload: string
  state: Generated<WebhookDeliveryState>
  attempts: Generated<number>
  next_attempt_at: Timestamp | null
  last_status: number | null
  last_error: string | null
  created_at: CreatedAt
  finished_at: Timestamp | null
}

/** One try at delivering: what the receiver answered (or why nothing was sent). */
export interface WebhookAttemptTable {
  workspace_id: string
  delivery_id: string
  attempt: number
  status_code: number | null
  duration_ms: number
  error: string | null
  at: CreatedAt
}

/** Why a discovered brand was suggested (migration 0015); one row per discovered brand. */
export interface BrandDiscoveryTable {
  workspace_id: string
  brand_id: string
  /** the folded name the scan matched: a rejected name stays rejected after a rename */
  name_key: string
  responses: number
  score: number
  first_seen: Timestamp
  last_seen: Timestamp
  signals: ColumnType<Record<string, number>, string, string>
  examples: ColumnType<{ response_id: string; snippet: string; cue: string }[], string, string>
  job_id: string | null
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

/** A Slack or e-mail notification channel (migration 0021); the target is sealed with SecretBox. */
export interface NotificationChannelTable {
  workspace_id: string
  id: string
  kind: 'slack' | 'email'
  target_sealed: string
  /** what lists show: the Slack URL masked, or the addresses */
  target_hint: string
  events: string[]
  /** 0 = Sunday … 6 = Saturday; null when the channel takes no digest */
  digest_day: number | null
  digest_hour: number | null
  digest_timezone: string | null
  /** the latest digest slot already claimed (sent or being sent) */
  digest_last_slot: Timestamp | null
  active: Generated<boolean>
  created_at: CreatedAt
}

/** One event for one channel, with the webhooks' delivery shape. */
export type NotificationDeliveryTable = Omit<WebhookDeliveryTable, 'webhook_id'> & { channel_id: string }

export type NotificationAttemptTable = WebhookAttemptTable

export interface Database {
  workspace: WorkspaceTable
  api_key: ApiKeyTable
  provider: ProviderTable
  model: ModelTable
  brand: BrandTable
  brand_discovery: BrandDiscoveryTable
  prompt: PromptTable
  response: ResponseTable
  mention: MentionTable
  citation: CitationTable
  search_query: SearchQueryTable
  aio_observation: AioObservationTable
  aio_appearance: AioAppearanceTable
  export_log: ExportLogTable
  job: JobTable
  collection_target: CollectionTargetTable
  collection_credential: CollectionCredentialTable
  collection_run: CollectionRunTable
  collection_run_error: CollectionRunErrorTable
  collection_answer: CollectionAnswerTable
  collection_spend: CollectionSpendTable
  collection_non_answer: CollectionNonAnswerTable
  webhook: WebhookTable
  webhook_delivery: WebhookDeliveryTable
  webhook_attempt: WebhookAttemptTable
  notification_channel: NotificationChannelTable
  notification_delivery: NotificationDeliveryTable
  notification_attempt: NotificationAttemptTable
  daily_response_stats: DailyResponseStatsTable
  daily_mention_stats: DailyMentionStatsTable
  workspace_domain: WorkspaceDomainTable
  daily_response_totals: DailyResponseTotalsTable
  daily_brand_totals: DailyBrandTotalsTable
  monthly_response_stats: Omit<DailyResponseStatsTable, 'day'> & { month: string }
  monthly_response_stats_by_provider: Omit<DailyResponseStatsTable, 'day' | 'model'> & { month: string }
  monthly_mention_stats: Omit<DailyMentionStatsTable, 'day'> & { month: string }
  monthly_mention_stats_by_provider: Omit<DailyMentionStatsTable, 'day' | 'model'> & { month: string }
  monthly_response_totals: Omit<DailyResponseTotalsTable, 'day'> & { month: string }
  monthly_brand_totals: Omit<DailyBrandTotalsTable, 'day'> & { month: string }
  daily_domain_stats: DailyDomainStatsTable
  monthly_domain_stats: Omit<DailyDomainStatsTable, 'day'> & { month: string }
  workspace_url: WorkspaceUrlTable
  daily_prompt_stats: { workspace_id: string; day: string; prompt_id: string; responses: number }
  daily_prompt_brand_stats: { workspace_id: string; brand_id: string; day: string; prompt_id: string; responses: number; occurrences: number }
  daily_url_stats: UrlStatsTable & { day: string }
  monthly_url_stats: UrlStatsTable & { month: string }
  quarterly_url_stats: UrlStatsTable & { quarter: string }
  yearly_url_stats: UrlStatsTable & { year: string }
  daily_brand_domain_stats: DailyBrandDomainStatsTable
  domain_prompt_days: PresenceDaysTable & { domain: string; prompt_id: string }
  domain_provider_days: PresenceDaysTable & { domain: string; provider: string }
  domain_tag_days: PresenceDaysTable & { tag: string; provider: string; model: string; domain: string }
  daily_prompt_response_stats: { workspace_id: string; prompt_id: string; day: string; provider: string; responses: number; sentiment_sum: string; sentiment_count: number }
  daily_prompt_mention_stats: PromptMentionStatsTable & { day: string }
  monthly_prompt_mention_stats: PromptMentionStatsTable & { month: string }
  daily_prompt_mentioned_responses: { workspace_id: string; prompt_id: string; day: string; provider: string; responses: number }
  daily_prompt_domain_stats: PromptDomainStatsTable & { day: string }
  monthly_prompt_domain_stats: PromptDomainStatsTable & { month: string }
  url_provider_days: PresenceDaysTable & { url_id: string; provider: string }
  prompt_days: PresenceDaysTable & { prompt_id: string }
}

/** Migration 0025: a prompt's mentions by brand and provider (GET /prompts/{id}). */
export interface PromptMentionStatsTable {
  workspace_id: string
  prompt_id: string
  brand_id: string
  provider: string
  responses: number
  occurrences: string
  position_sum: string
  sentiment_sum: string
  sentiment_count: number
}

/** Migration 0025: a prompt's citations by domain (GET /prompts/{id}). */
export interface PromptDomainStatsTable {
  workspace_id: string
  prompt_id: string
  domain: string
  citations: number
}
