// Tenants and a little data for the fault tests, made through the real HTTP API.
import { createApiKey } from '../../../src/admin/api-key-store.js'
import { createWorkspace } from '../../../src/admin/workspaces.js'
import { SCOPES, type Tier } from '../../../src/auth/scopes.js'
import type { DB } from '../../../src/db/database.js'
import { addDays, todayUtc } from '../../../src/core/date-range.js'

export async function createTenant(db: DB, tier: Tier = 'premium', name = 'Faults'): Promise<{ workspaceId: string; key: string }> {
  const workspace = await createWorkspace(db, { name, tier })
  const { key } = await createApiKey(db, { workspaceId: workspace.id, scopes: [...SCOPES] })
  return { workspaceId: workspace.id, key }
}

/** The parsed body; a caller that reads deeper names the shape it expects (tests check the status first). */
export interface CallResult<T> {
  status: number
  json: T
  headers: Headers
}

export async function call<T = { data?: unknown }>(base: string, key: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<CallResult<T>> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = text
  }
  return { status: response.status, json: json as T, headers: response.headers }
}

async function created(base: string, key: string, path: string, body: unknown): Promise<string> {
  const response = await call<{ data: { id: string } }>(base, key, 'POST', path, body)
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.json)}`)
  return response.json.data.id
}

export interface SmallWorkspace {
  promptId: string
  brandIds: string[]
}

/** Two brands, one prompt and `count` responses over the last days, so analytics have rows to read. */
export async function seedSmallWorkspace(base: string, key: string, count = 40): Promise<SmallWorkspace> {
  const brandIds = [
    await created(base, key, '/api/v1/brands', { name: 'Acme', domain: 'acme.com', is_primary: true }),
    await created(base, key, '/api/v1/brands', { name: 'Globex', domain: 'globex.com' }),
  ]
  const promptId = await created(base, key, '/api/v1/prompts', { text: 'Which CRM should a small team use?', tags: ['crm'] })
  const today = todayUtc()
  const responses = Array.from({ length: count }, (_, i) => ({
    external_id: `seed-${i}`,
    prompt_id: promptId,
    provider: i % 2 ? 'openai' : 'anthropic',
    model: i % 2 ? 'gpt-4o' : 'claude-sonnet-4',
    content: i % 3 ? 'Acme is a great choice; Globex is fine too. See https://acme.com/pricing' : 'Globex is reliable.',
    created_at: `${addDays(today, -(i % 10))}T12:00:00Z`,
  }))
  const ingested = await call<{ data: { accepted: number } }>(base, key, 'POST', '/api/v1/ingest/responses', { responses })
  if (ingested.status !== 200 || ingested.json.data.accepted !== count) throw new Error(`ingest: ${ingested.status} ${JSON.stringify(ingested.json)}`)
  return { promptId, brandIds }
}
