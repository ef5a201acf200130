// GET /responses/{id} (docs/dashboard.md): one stored answer in full, the brands it mentions with
// where (spans), its citations with their source types, and the web searches the engine ran
// for it (query fan-out, docs/collection.md).
//
// Spans are not stored: they are recomputed with the workspace's compiled brand matcher,
// the same one analysis used, so they land exactly on the text that was counted. Only the
// brands that have a stored mention row are reported; a brand added since the answer was
// analysed appears once its re-analysis has run, like every other number.
import type { DB } from '../../db/database.js'
import type { SourceType } from '../../analysis/source-types.js'
import { AppError } from '../../core/errors.js'
import { loadBrandMatcher } from '../../ingest/brand-terms.js'
import { roundSentiment } from '../rounding.js'
import { sourceClassifier } from '../sources/get-sources.js'

export interface MentionSpan {
  /** UTF-16 code unit offsets into `content`, end exclusive (what String.prototype.slice takes) */
  start: number
  end: number
}

export interface ResponseMention {
  brand_id: string
  name: string
  occurrences: number
  position: number
  sentiment: number | null
  spans: MentionSpan[]
}

export interface ResponseCitation {
  url: string
  domain: string
  title: string
  source_type: SourceType
}

export interface ResponseDetail {
  id: string
  prompt_id: string
  prompt: string
  provider: string
  model: string
  content: string
  created_at: Date
  sentiment: number | null
  mentions: ResponseMention[]
  citations: ResponseCitation[]
  /** the engine's own web searches for this answer, in its order, as it sent them */
  search_queries: string[]
}

export async function getResponseDetail(db: DB, workspaceId: string, responseId: string): Promise<ResponseDetail> {
  const response = await db
    .selectFrom('response')
    .innerJoin('prompt', (join) => join.onRef('prompt.workspace_id', '=', 'response.workspace_id').onRef('prompt.id', '=', 'response.prompt_id'))
    .select(['response.id', 'response.prompt_id', 'prompt.text as prompt', 'response.provider', 'response.model', 'response.content', 'response.created_at', 'response.sentiment'])
    .where('response.workspace_id', '=', workspaceId)
    .where('response.id', '=', responseId)
    .executeTakeFirst()
  // Another workspace's id is indistinguishable from a missing one (docs/security.md).
  if (!response) throw new AppError(404, 'not_found', `No response ${responseId} in this workspace; GET /api/v1/responses lists its responses`)

  const [mentionRows, citationRows, searchRows, matcher, classify] = await Promise.all([
    db
      .selectFrom('mention')
      .innerJoin('brand', (join) => join.onRef('brand.workspace_id', '=', 'mention.workspace_id').onRef('brand.id', '=', 'mention.brand_id'))
      .select(['mention.brand_id', 'brand.name', 'mention.occurrences', 'mention.position', 'mention.sentiment'])
      .where('mention.workspace_id', '=', workspaceId)
      .where('mention.response_id', '=', responseId)
      .orderBy('mention.position')
      .orderBy('brand.name')
      .execute(),
    db
      .selectFrom('citation')
      .select(['url', 'domain', 'title'])
      .where('workspace_id', '=', workspaceId)
      .where('response_id', '=', responseId)
      .orderBy('domain')
      .orderBy('url')
      .execute(),
    db.selectFrom('search_query').select('query').where('workspace_id', '=', workspaceId).where('response_id', '=', responseId).orderBy('position').execute(),
    loadBrandMatcher(db, workspaceId),
    sourceClassifier(db, workspaceId),
  ])

  const spans = new Map<string, MentionSpan[]>()
  for (const match of matcher.match(response.content)) {
    const list = spans.get(match.brandId)
    if (list) list.push({ start: match.start, end: match.end })
    else spans.set(match.brandId, [{ start: match.start, end: match.end }])
  }

  return {
    ...response,
    sentiment: response.sentiment === null ? null : roundSentiment(Number(response.sentiment)),
    mentions: mentionRows.map((row) => ({
      brand_id: row.brand_id,
      name: row.name,
      occurrences: row.occurrences,
      position: row.position,
      sentiment: row.sentiment === null ? null : roundSentiment(Number(row.sentiment)),
      spans: spans.get(row.brand_id) ?? [],
    })),
    citations: citationRows.map((row) => ({ ...row, source_type: classify(row.domain) })),
    search_queries: searchRows.map((row) => row.query),
  }
}
