// A small workspace built through the real HTTP API (brands, prompts, ingestion with
// analysis). The numbers the export tests expect are worked out from this table by hand:
//
// brands: Acme (acme.com, primary), Globex (alias "Globex Corp"), Initech (never named),
//         Umbrella (inactive, so never matched)
// prompts: P1 "Best CRM for startups?" [crm]; P2 'Top, "fast" CRM tools' [db]
//
// ext  prompt provider   model            created_at (UTC)      mentions (brand occ pos)     citations
// r1   P1     openai     gpt-4o           2026-05-01 09:00:00   Globex 1 1, Acme 1 2         g2.com/crm ("CRM, reviewed")
// r2   P1     anthropic  claude-sonnet-4  2026-05-01 15:00:00   Acme 3 1                     -
// r3   P2     openai     gpt-4o           2026-05-02 08:00:00   Globex 1 1 (alias), Acme 1 2 acme.com/pricing (from the text)
// r4   P2     google     gemini-2.5-pro   2026-05-02 12:00:00   - (empty content)            -
// r5   P1     perplexity sonar            2026-05-03 23:59:59   - (Umbrella is inactive)     en.wikipedia.org/wiki/CRM
// r6   P1     openai     gpt-4o           2026-04-30 23:59:59   Acme (outside the range)     outside.example
// r7   P1     openai     gpt-4o           2026-05-04 00:00:00   Acme (outside the range)     -
import type { TestContext } from '../helpers/test-app.js'
import { createBrand, createPrompt, ingest, post } from '../helpers/requests.js'

export const RANGE = { from: '2026-05-01', to: '2026-05-03' }
export const P1_TEXT = 'Best CRM for startups?'
export const P2_TEXT = 'Top, "fast" CRM tools'

export const CONTENT = {
  r1: 'Globex is decent. Acme is excellent and loved by teams.',
  r2: 'Acme, Acme and again Acme. Nothing else compares.',
  r3: '-5 reasons:\n\tGlobex Corp leads, then Acme.\nSee https://acme.com/pricing',
  r4: '',
  r5: 'Nobody here but Umbrella.',
  r6: 'Acme outside the range.',
  r7: 'Acme after the range.',
}

export interface ExportFixture {
  workspaceId: string
  key: string
  p1: string
  p2: string
  /** external id → response id */
  ids: Record<string, string>
  /** external id → stored response sentiment */
  sentiment: Record<string, number | null>
  /** `${external id} ${brand name}` → stored mention sentiment */
  mentionSentiment: Record<string, number | null>
}

export async function seedExportFixture(ctx: TestContext): Promise<ExportFixture> {
  const { workspaceId, key } = await ctx.tenant()
  await createBrand(ctx, key, { name: 'Acme', domain: 'acme.com', is_primary: true })
  await createBrand(ctx, key, { name: 'Globex', aliases: ['Globex Corp'] })
  await createBrand(ctx, key, { name: 'Initech' })
  const umbrella = await createBrand(ctx, key, { name: 'Umbrella' })
  const deactivated = await post(ctx, `/api/v1/brands/${umbrella}`, key, { is_active: false }, 'PATCH')
  if (deactivated.statusCode !== 200) throw new Error(`deactivate: ${deactivated.statusCode} ${deactivated.body}`)
  const p1 = await createPrompt(ctx, key, P1_TEXT, ['crm'])
  const p2 = await createPrompt(ctx, key, P2_TEXT, ['db'])
  const item = (external_id: keyof typeof CONTENT, prompt_id: string, provider: string, model: string, created_at: string, citations?: { url: string; title?: string }[]) => ({
    external_id,
    prompt_id,
    provider,
    model,
    content: CONTENT[external_id],
    created_at,
    ...(citations ? { citations } : {}),
  })
  await ingest(ctx, key, [
    item('r1', p1, 'openai', 'gpt-4o', '2026-05-01T09:00:00Z', [{ url: 'https://www.g2.com/crm?utm_source=ai', title: 'CRM, reviewed' }]),
    item('r2', p1, 'anthropic', 'claude-sonnet-4', '2026-05-01T15:00:00Z'),
    item('r3', p2, 'openai', 'gpt-4o', '2026-05-02T08:00:00Z'),
    item('r4', p2, 'google', 'gemini-2.5-pro', '2026-05-02T12:00:00Z'),
    item('r5', p1, 'perplexity', 'sonar', '2026-05-03T23:59:59Z', [{ url: 'https://en.wikipedia.org/wiki/CRM#History' }]),
    item('r6', p1, 'openai', 'gpt-4o', '2026-04-30T23:59:59Z', [{ url: 'https://outside.example/' }]),
    item('r7', p1, 'openai', 'gpt-4o', '2026-05-04T00:00:00Z'),
  ])

  // Ids and NLP sentiments are read back, not predicted: wink-nlp decides the values.
  const db = ctx.database.db
  const responses = await db.selectFrom('response').select(['id', 'external_id', 'sentiment']).where('workspace_id', '=', workspaceId).execute()
  const mentions = await db
    .selectFrom('mention')
    .innerJoin('brand', (join) => join.onRef('brand.workspace_id', '=', 'mention.workspace_id').onRef('brand.id', '=', 'mention.brand_id'))
    .select(['mention.response_id', 'brand.name', 'mention.sentiment'])
    .where('mention.workspace_id', '=', workspaceId)
    .execute()
  const ids = Object.fromEntries(responses.map((r) => [r.external_id!, r.id]))
  const external = Object.fromEntries(responses.map((r) => [r.id, r.external_id!]))
  return {
    workspaceId,
    key,
    p1,
    p2,
    ids,
    sentiment: Object.fromEntries(responses.map((r) => [r.external_id!, r.sentiment])),
    mentionSentiment: Object.fromEntries(mentions.map((m) => [`${external[m.response_id]} ${m.name}`, m.sentiment])),
  }
}
