// Collection target writes (scope manage:workspace) and the target as the API shows it.
import type { Selectable } from 'kysely'
import type { DB } from '../db/database.js'
import type { CollectionTargetTable, TargetApi } from '../db/schema.js'
import { newId } from '../db/ids.js'
import { AppError, invalidParameter, notFound } from '../core/errors.js'
import { credentialMismatchMessage, credentialProviderFor } from './credentials.js'
import { checkSchedule, checkTimezone, DEFAULT_SCHEDULE, DEFAULT_TIMEZONE, nextSlot } from './schedule.js'

export const MAX_TARGETS_PER_WORKSPACE = 200

export interface TargetInput {
  kind?: 'answer' | 'aio'
  provider?: 'openai' | 'anthropic' | 'google' | 'perplexity'
  model?: string
  api?: TargetApi
  base_url?: string | null
  web_search?: boolean
  serp?: 'serpapi' | 'dataforseo'
  locale?: string
  samples?: number
  schedule?: string
  timezone?: string
  enabled?: boolean
  credential?: string | null
}

export type TargetRow = Selectable<CollectionTargetTable>

export interface TargetView {
  id: string
  kind: 'answer' | 'aio'
  provider: string | null
  model: string | null
  api: TargetApi | null
  base_url: string | null
  web_search: boolean
  serp: 'serpapi' | 'dataforseo' | null
  locale: string | null
  samples: number
  schedule: string
  timezone: string
  next_run_at: Date | null
  enabled: boolean
  credential: string | null
  flagged: boolean
  flag_reason: string | null
  created_at: Date
  updated_at: Date
}

export function targetView(row: TargetRow, now = new Date()): TargetView {
  return {
    id: row.id,
    kind: row.kind,
    provider: row.provider,
    model: row.model,
    api: row.api,
    base_url: row.base_url,
    web_search: row.web_search,
    serp: row.serp,
    locale: row.locale,
    samples: row.samples,
    schedule: row.schedule,
    timezone: row.timezone,
    next_run_at: row.enabled ? (nextSlot(row.schedule, row.timezone, now) ?? null) : null,
    enabled: row.enabled,
    credential: row.credential,
    flagged: row.flagged,
    flag_reason: row.flag_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

function checkBaseUrl(raw: string): string {
  try {
    const url = new URL(raw.trim())
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString().replace(/\/$/, '')
  } catch {
    // fall through
  }
  throw invalidParameter('base_url', 'base_url must be an absolute http(s) URL of an OpenAI-compatible API, e.g. "http://127.0.0.1:11434/v1"')
}

/** The whole target after applying `input` to `current` (or to the defaults), checked field by field and as a whole. */
async function resolve(db: DB, workspaceId: string, current: TargetRow | undefined, input: TargetInput, options: TargetWriteOptions) {
  const kind = input.kind ?? current?.kind ?? 'answer'
  if (current && input.kind !== undefined && input.kind !== current.kind) throw invalidParameter('kind', 'kind cannot change; create a new target instead')
  const timezone = input.timezone !== undefined ? checkTimezone(input.timezone.trim()) : (current?.timezone ?? DEFAULT_TIMEZONE)
  // A stored schedule is checked again only when schedule or timezone is sent: an older target
  // keeps working, and the scheduler holds it to the minimum interval anyway.
  const schedule =
    input.schedule !== undefined || input.timezone !== undefined || !current
      ? checkSchedule(input.schedule ?? current?.schedule ?? DEFAULT_SCHEDULE, timezone, options.minIntervalMinutes)
      : current.schedule
  const credential = input.credential === undefined ? (current?.credential ?? null) : input.credential === null || input.credential.trim() === '' ? null : input.credential.trim()
  const storedFor = credential ? await credentialProvider(db, workspaceId, credential) : undefined
  if (credential && input.credential !== undefined && storedFor === undefined)
    throw invalidParameter(
      'credential',
      `no credential "${credential}" in this workspace; store it first with PUT /api/v1/collection/credentials/${encodeURIComponent(credential)}`,
    )
  const common = { samples: input.samples ?? current?.samples ?? 1, schedule, timezone, enabled: input.enabled ?? current?.enabled ?? true, credential }
  const target = await resolveKind(kind, current, input, common)
  // A key only goes to its own provider (docs/collection.md, "Outbound requests"): checked on
  // every write, since changing api or provider changes where the credential would be sent.
  const expected = credentialProviderFor(target)
  if (credential && storedFor !== undefined && expected !== undefined && storedFor !== expected)
    throw invalidParameter('credential', credentialMismatchMessage(credential, storedFor, expected))
  return target
}

async function credentialProvider(db: DB, workspaceId: string, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('collection_credential').select('provider').where('workspace_id', '=', workspaceId).where('name', '=', name).executeTakeFirst()
  return row?.provider
}

type CommonFields = { samples: number; schedule: string; timezone: string; enabled: boolean; credential: string | null }

function resolveKind(kind: 'answer' | 'aio', current: TargetRow | undefined, input: TargetInput, common: CommonFields) {
  if (kind === 'aio') {
    for (const field of ['provider', 'model', 'base_url', 'web_search'] as const)
      if (input[field] !== undefined) throw invalidParameter(field, `${field} applies to answer targets; an AI-overview target (kind "aio") takes serp and locale`)
    const serp = input.serp ?? current?.serp
    if (!serp) throw new AppError(400, 'missing_parameter', 'an AI-overview target needs serp ("serpapi" or "dataforseo")', { param: 'serp' })
    const api = input.api ?? current?.api ?? null
    if (api !== null && api !== 'demo') throw invalidParameter('api', 'an AI-overview target takes api "demo" (the built-in simulator) or none')
    return { kind, provider: null, model: null, api, base_url: null, web_search: false, serp, locale: (input.locale ?? current?.locale ?? 'en-US').trim(), ...common }
  }
  for (const field of ['serp', 'locale'] as const) if (input[field] !== undefined) throw invalidParameter(field, `${field} applies to AI-overview targets (kind "aio") only`)
  const provider = input.provider ?? current?.provider
  if (!provider) throw new AppError(400, 'missing_parameter', 'an answer target needs provider (openai, anthropic, google or perplexity)', { param: 'provider' })
  const model = (input.model ?? current?.model ?? '').trim()
  if (!model) throw new AppError(400, 'missing_parameter', 'an answer target needs model, e.g. "gpt-4o-mini"', { param: 'model' })
  const api = input.api ?? current?.api ?? 'native'
  const rawBase = input.base_url === undefined ? (current?.base_url ?? null) : input.base_url
  const base_url = rawBase === null || rawBase.trim() === '' ? null : checkBaseUrl(rawBase)
  if (api === 'openai_compatible' && !base_url)
    throw new AppError(400, 'missing_parameter', 'api "openai_compatible" needs base_url, the address of the chat completions API', { param: 'base_url' })
  if (api !== 'openai_compatible' && base_url) throw invalidParameter('base_url', 'base_url applies only to api "openai_compatible"')
  return { kind, provider, model, api, base_url, web_search: input.web_search ?? current?.web_search ?? false, serp: null, locale: null, ...common }
}

export interface TargetWriteOptions {
  /** COLLECTION_MIN_INTERVAL_MINUTES: schedules firing more often are refused (default 60) */
  minIntervalMinutes?: number
}

export async function createTarget(db: DB, workspaceId: string, input: TargetInput, now = new Date(), options: TargetWriteOptions = {}): Promise<TargetView> {
  const values = await resolve(db, workspaceId, undefined, input, options)
  const count = await db
    .selectFrom('collection_target')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow()
  if (Number(count.n) >= MAX_TARGETS_PER_WORKSPACE) throw invalidParameter('kind', `a workspace has at most ${MAX_TARGETS_PER_WORKSPACE} collection targets; delete some first`)
  // The schedule starts counting now: a slot earlier today does not fire on creation.
  const row = await db
    .insertInto('collection_target')
    .values({ workspace_id: workspaceId, id: newId(), ...values, last_scheduled_at: now })
    .returningAll()
    .executeTakeFirstOrThrow()
  return targetView(row, now)
}

export async function updateTarget(db: DB, workspaceId: string, id: string, input: TargetInput, now = new Date(), options: TargetWriteOptions = {}): Promise<TargetView> {
  const current = await db.selectFrom('collection_target').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).forUpdate().executeTakeFirst()
  if (!current) throw notFound('Collection target')
  const values = await resolve(db, workspaceId, current, input, options)
  const rescheduled = values.schedule !== current.schedule || values.timezone !== current.timezone || (values.enabled && !current.enabled)
  // Any edit clears a flag: the user has looked at the target (a new credential, a fixed model).
  const row = await db
    .updateTable('collection_target')
    .set({ ...values, flagged: false, flag_code: null, flag_reason: null, flagged_at: null, updated_at: now, ...(rescheduled ? { last_scheduled_at: now } : {}) })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
  return targetView(row, now)
}

/** Deletes the target; its past runs and answers stay. */
export async function deleteTarget(db: DB, workspaceId: string, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom('collection_target').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()
  return Number(deleted.numDeletedRows) > 0
}
