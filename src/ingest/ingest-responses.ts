// The write path for AI responses: validate the whole batch, analyse each new response,
// and store responses, mentions and citations in one transaction (docs/data-in.md).
import type { DB } from '../db/database.js'
import type { Insertable } from 'kysely'
import type { Database } from '../db/schema.js'
import { newId } from '../db/ids.js'
import type { BrandMatcher, ResponseAnalysis } from '../analysis/index.js'
import { AnalysisPool } from '../analysis/analysis-pool.js'
import { AppError } from '../core/errors.js'
import { lastBrandMatcher, loadBrandMatcher } from './brand-terms.js'
import { problemsError, validateResponseItems, type ItemProblem, type ResponseItem } from './validate-items.js'
import { insertColumns } from './insert-chunks.js'
import { retryOnConflict } from '../db/retry-conflicts.js'
import { lockAnalysisInputs } from '../db/analysis-lock.js'
import { maintainRollups } from '../rollups/index.js'
import { freshItems, insertIdempotent, withoutRepeats } from './idempotent-insert.js'
import { bumpDataVersion } from '../db/data-version.js'
import { cleanSearchQueries, searchQueryKey } from './search-queries.js'

export interface IngestResult {
  accepted: number
  duplicates: number
}

/** 400 with the bad items listed (a bounded number; `total` counts them all); nothing stored. */
export function batchError(problems: ItemProblem[], listName: string, total: number = problems.length): AppError {
  return problemsError(problems, listName, total)
}

/** Checks that need the database: prompts of this workspace, model ↔ provider consistency. */
async function checkReferences(trx: DB, workspaceId: string, items: ResponseItem[], problems: ItemProblem[]): Promise<void> {
  const promptIds = [...new Set(items.map((i) => i.prompt_id))]
  const known = new Set((await trx.selectFrom('prompt').select('id').where('workspace_id', '=', workspaceId).where('id', 'in', promptIds).execute()).map((r) => r.id))
  const models = [...new Set(items.map((i) => i.model))]
  const modelProviders = new Map(
    (await trx.selectFrom('model').select(['id', 'provider']).where('workspace_id', '=', workspaceId).where('id', 'in', models).execute()).map((r) => [r.id, r.provider]),
  )
  items.forEach((item, index) => {
    if (!known.has(item.prompt_id)) problems.push({ index, field: 'prompt_id', message: `no prompt ${item.prompt_id} in this workspace; create it with POST /api/v1/prompts` })
    const provider = modelProviders.get(item.model)
    if (provider && provider !== item.provider) {
      problems.push({ index, field: 'model', message: `model "${item.model}" belongs to provider ${provider}, not ${item.provider}` })
    } else if (!provider) {
      modelProviders.set(item.model, item.provider) // first sight within this batch decides
    }
  })
}

/**
 * Without a pool from the caller a batch is analysed on this thread: no setting is read from
 * the environment here. Callers that write big batches pass theirs (the API, `beacon import`,
 * the demo); collection writes one answer at a time, which never goes to threads anyway.
 */
const ON_THIS_THREAD = new AnalysisPool(0)

export async function ingestResponses(
  db: DB,
  workspaceId: string,
  rawItems: unknown[],
  options: { matcher?: BrandMatcher; now?: Date; pool?: AnalysisPool } = {},
): Promise<IngestResult> {
  const { items, problems, total } = validateResponseItems(rawItems, options.now)
  if (total) throw batchError(problems, 'responses', total)
  if (items.length === 0) return { accepted: 0, duplicates: 0 }

  // Analysis is most of a batch's CPU, so it runs before the transaction and needs no
  // database. The transaction opens only once it has settled: on PGlite every request waits
  // for the one connection, and a transaction waiting on the analysis threads (their start
  // on the first batch, over a second on 2 busy cores) would hold it all that time; meanwhile
  // another batch's transaction may run. It uses the brand list this process last compiled
  // for the workspace; the transaction checks under the analysis-inputs lock that the list is
  // unchanged, and analyses again with the current one otherwise (the rare case that holds
  // the transaction open). Items already stored are only known inside; analysing a re-sent
  // batch again costs CPU but stores nothing twice.
  const pool = options.pool ?? ON_THIS_THREAD
  const earlyMatcher = options.matcher ?? lastBrandMatcher(workspaceId) ?? (await loadBrandMatcher(db, workspaceId))
  const early = analyseItems(pool, withoutRepeats(items), earlyMatcher)
  // Settled here, its error (if any) thrown in the transaction: a batch with bad references
  // is answered with those, as before.
  await early.catch(() => {})

  // A deadlock with a concurrent writer is retried (under a savepoint when db is already a
  // transaction), not answered with a 500; the early analysis serves every attempt.
  return retryOnConflict(db, async (trx) => {
    // Brands and tags cannot change under this batch until it commits.
    await lockAnalysisInputs(trx, workspaceId, 'read')
    const referenceProblems: ItemProblem[] = []
    await checkReferences(trx, workspaceId, items, referenceProblems)
    if (referenceProblems.length) throw batchError(referenceProblems, 'responses')

    // Duplicates: already stored, or repeated earlier in this batch. Retries are safe.
    const fresh = await freshItems(trx, 'response', workspaceId, items)

    const newModels = [...new Map(fresh.map((i) => [i.model, i.provider])).entries()]
    if (newModels.length) {
      await trx
        .insertInto('model')
        .values(newModels.map(([id, provider]) => ({ workspace_id: workspaceId, id, provider, name: id })))
        .onConflict((oc) => oc.columns(['workspace_id', 'id']).doNothing())
        .execute()
    }

    const matcher = options.matcher ?? (await loadBrandMatcher(trx, workspaceId))
    // The early results count only if they came from the brand list read under the lock.
    const analysed = earlyMatcher === matcher ? await early : new Map<ResponseItem, ResponseAnalysis>()
    const missing = fresh.filter((item) => !analysed.has(item))
    if (missing.length) for (const [item, analysis] of await analyseItems(pool, missing, matcher)) analysed.set(item, analysis)
    const responses: Insertable<Database['response']>[] = []
    const mentions: Insertable<Database['mention']>[] = []
    const citations: Insertable<Database['citation']>[] = []
    const searchQueries: Insertable<Database['search_query']>[] = []
    for (const [index, item] of fresh.entries()) {
      const id = newId()
      const createdAt = new Date(item.created_at)
      const analysis = analysed.get(item)
      if (!analysis) throw new Error(`response ${index} of the batch was not analysed`)
      responses.push({
        workspace_id: workspaceId,
        id,
        prompt_id: item.prompt_id,
        provider: item.provider,
        model: item.model,
        content: item.content,
        created_at: createdAt,
        external_id: item.external_id ?? null,
        sentiment: analysis.sentiment,
      })
      const facts = { workspace_id: workspaceId, response_id: id, prompt_id: item.prompt_id, provider: item.provider, model: item.model, created_at: createdAt }
      for (const m of analysis.mentions) mentions.push({ ...facts, brand_id: m.brandId, occurrences: m.occurrences, position: m.position, sentiment: m.sentiment })
      for (const c of analysis.citations) citations.push({ ...facts, url: c.url, domain: c.domain, title: c.title })
      // The engine's own searches (query fan-out), in its order, repeats kept once.
      for (const [i, query] of (cleanSearchQueries(item.search_queries) ?? []).entries()) searchQueries.push({ ...facts, position: i + 1, query, query_key: searchQueryKey(query) })
    }

    // A concurrent batch with the same external ids may commit first; the unique index
    // decides, and only rows this transaction inserted get facts.
    const inserted = await insertIdempotent(trx, 'response', responses, {
      workspace_id: 'uuid',
      id: 'uuid',
      prompt_id: 'uuid',
      provider: 'text',
      model: 'text',
      content: 'text',
      created_at: 'timestamptz',
      external_id: 'text',
      sentiment: 'float8',
    })
    const storedMentions = mentions.filter((m) => inserted.has(m.response_id))
    const storedCitations = citations.filter((c) => inserted.has(c.response_id))
    const factColumns = { workspace_id: 'uuid', response_id: 'uuid', prompt_id: 'uuid', provider: 'text', model: 'text', created_at: 'timestamptz' } as const
    await insertColumns(trx, 'mention', storedMentions, { ...factColumns, brand_id: 'uuid', occurrences: 'int4', position: 'int4', sentiment: 'float8' })
    await insertColumns(trx, 'citation', storedCitations, { ...factColumns, url: 'text', domain: 'text', title: 'text' })
    const storedSearchQueries = searchQueries.filter((q) => inserted.has(q.response_id))
    await insertColumns(trx, 'search_query', storedSearchQueries, { ...factColumns, position: 'int4', query: 'text', query_key: 'text' })
    // The rollups re-read just these responses' facts by index, in this transaction.
    await maintainRollups(trx, workspaceId, [...inserted])
    if (inserted.size) await bumpDataVersion(trx, workspaceId)
    return { accepted: inserted.size, duplicates: items.length - inserted.size }
  })
}

/** Each item's analysis, by item. */
async function analyseItems(pool: AnalysisPool, items: readonly ResponseItem[], matcher: BrandMatcher): Promise<Map<ResponseItem, ResponseAnalysis>> {
  const results = await pool.analyze(
    items.map((item) => ({ content: item.content, citations: item.citations ?? [] })),
    matcher,
  )
  return new Map(items.map((item, index) => [item, results[index]]))
}
