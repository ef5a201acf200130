// Brand writes (scope manage:workspace). A change to what matching sees queues a
// re-analysis of the workspace's history (mentions and positions depend on the whole brand
// list); the write answers at once with the queued job.
import type { DB } from '../db/database.js'
import type { DiscoveryStatus } from '../db/schema.js'
import { newId } from '../db/ids.js'
import { AppError, invalidParameter, notFound } from '../core/errors.js'
import { REANALYSIS } from '../jobs/job-names.js'
import type { JobQueue, JobRef } from '../jobs/job-runtime.js'
import { cleanList } from './clean-list.js'
import { bumpDataVersion } from '../db/data-version.js'
import { lockAnalysisInputs } from '../db/analysis-lock.js'
import { MAX_BRANDS_PER_WORKSPACE } from '../core/limits.js'

export interface BrandInput {
  name?: string
  domain?: string | null
  aliases?: string[]
  icon_url?: string | null
  is_primary?: boolean
  is_active?: boolean
  discovery_status?: DiscoveryStatus
}

export const brandColumns = ['id', 'name', 'domain', 'aliases', 'icon_url', 'is_primary', 'is_active', 'discovery_status', 'created_at', 'updated_at'] as const

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/

export function normalizeDomain(raw: string): string {
  let host = raw.trim().toLowerCase()
  if (host.endsWith('.')) host = host.slice(0, -1)
  if (!HOSTNAME.test(host)) {
    throw invalidParameter('domain', `domain must be a hostname such as "acme.com" (no scheme, path or port); got "${raw.slice(0, 80)}"`)
  }
  return host
}

function checkIconUrl(raw: string): string {
  try {
    const url = new URL(raw)
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString()
  } catch {
    // fall through
  }
  throw invalidParameter('icon_url', 'icon_url must be an absolute http(s) URL')
}

function clean(input: BrandInput): BrandInput {
  const out: BrandInput = { ...input }
  if (input.name !== undefined) {
    out.name = input.name.trim()
    if (!out.name) throw invalidParameter('name', 'name must not be empty')
  }
  if (input.domain !== undefined) out.domain = input.domain === null || input.domain.trim() === '' ? null : normalizeDomain(input.domain)
  if (input.aliases !== undefined) out.aliases = cleanList(input.aliases)
  if (input.icon_url !== undefined) out.icon_url = input.icon_url === null || input.icon_url.trim() === '' ? null : checkIconUrl(input.icon_url.trim())
  return out
}

async function checkConflicts(db: DB, workspaceId: string, brandId: string | undefined, input: BrandInput): Promise<void> {
  if (input.name !== undefined) {
    const clash = await db
      .selectFrom('brand')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where((eb) => eb(eb.fn('lower', ['name']), '=', input.name!.toLowerCase()))
      .executeTakeFirst()
    if (clash && clash.id !== brandId) throw invalidParameter('name', `A brand named "${input.name}" already exists in this workspace; brand names are unique`)
  }
  if (input.is_primary) {
    const primary = await db.selectFrom('brand').select(['id', 'name']).where('workspace_id', '=', workspaceId).where('is_primary', '=', true).executeTakeFirst()
    if (primary && primary.id !== brandId) {
      throw invalidParameter('is_primary', `"${primary.name}" is already the primary brand; set its is_primary to false first (one primary brand per workspace)`)
    }
  }
}

async function checkBrandCount(db: DB, workspaceId: string): Promise<void> {
  const { n } = await db
    .selectFrom('brand')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow()
  if (Number(n) >= MAX_BRANDS_PER_WORKSPACE) {
    throw invalidParameter(
      'name',
      `This workspace already has ${Number(n)} brands, the most it may have (${MAX_BRANDS_PER_WORKSPACE}); edit an inactive or rejected brand instead of adding one`,
    )
  }
}

/** `queue` takes the re-analysis job; it runs in the caller's transaction, so the job appears when the brand does. */
export async function createBrand(db: DB, workspaceId: string, raw: BrandInput, queue: JobQueue) {
  const input = clean(raw)
  if (!input.name) throw new AppError(400, 'missing_parameter', 'name is required', { param: 'name' })
  await lockAnalysisInputs(db, workspaceId, 'write')
  await checkConflicts(db, workspaceId, undefined, input)
  await checkBrandCount(db, workspaceId)
  const brand = await db
    .insertInto('brand')
    .values({
      workspace_id: workspaceId,
      id: newId(),
      name: input.name,
      domain: input.domain ?? null,
      aliases: input.aliases ?? [],
      icon_url: input.icon_url ?? null,
      is_primary: input.is_primary ?? false,
      is_active: input.is_active ?? true,
      discovery_status: input.discovery_status ?? 'confirmed',
    })
    .returning(brandColumns)
    .executeTakeFirstOrThrow()
  await bumpDataVersion(db, workspaceId)
  const job = await queue.enqueue(db, workspaceId, REANALYSIS)
  return { brand, job }
}

export async function updateBrand(
  db: DB,
  workspaceId: string,
  brandId: string,
  raw: BrandInput,
  queue: JobQueue,
): Promise<{ brand: Awaited<ReturnType<typeof createBrand>>['brand']; job: JobRef | null }> {
  const input = clean(raw)
  const existing = await db.selectFrom('brand').select(brandColumns).where('workspace_id', '=', workspaceId).where('id', '=', brandId).executeTakeFirst()
  if (!existing) throw notFound('Brand')
  await checkConflicts(db, workspaceId, brandId, input)
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined))
  if (Object.keys(changes).length === 0) return { brand: existing, job: null }
  await lockAnalysisInputs(db, workspaceId, 'write')
  const brand = await db
    .updateTable('brand')
    .set({ ...changes, updated_at: new Date() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', brandId)
    .returning(brandColumns)
    .executeTakeFirstOrThrow()
  // Only what matching sees needs a new analysis.
  await bumpDataVersion(db, workspaceId)
  const affectsAnalysis = ['name', 'aliases', 'domain', 'is_active'].some((field) => field in changes)
  const job = affectsAnalysis ? await queue.enqueue(db, workspaceId, REANALYSIS) : null
  return { brand, job }
}

/** Every brand of the workspace, primary first, then by name. */
export async function listBrands(db: DB, workspaceId: string) {
  return db.selectFrom('brand').select(brandColumns).where('workspace_id', '=', workspaceId).orderBy('is_primary', 'desc').orderBy('name').orderBy('id').execute()
}
