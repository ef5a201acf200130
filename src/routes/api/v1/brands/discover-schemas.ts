// Competitor discovery (docs/uncertainty-and-discovery.md): the route that queues the scan, and the evidence a
// discovered brand's detail carries.
import { Type } from 'typebox'
import { EnvelopeWithJob, IsoDateTime, Responses } from '../../../../http/schemas.js'

export const DiscoveryEvidenceSchema = Type.Object(
  {
    responses: Type.Integer({ description: 'Stored answers naming the brand when discovery last ran' }),
    first_seen: IsoDateTime,
    last_seen: IsoDateTime,
    score: Type.Number({
      description: 'Σ over those answers of the strongest cue: heading or list item 3, table row or bold 2.5, link 2, in a sentence 1, opening a sentence 0.5',
    }),
    signals: Type.Record(Type.String(), Type.Integer(), { description: 'Answers where the name appeared as heading, list, table, bold, link, prose or start (sentence start)' }),
    examples: Type.Array(
      Type.Object(
        { response_id: Type.String({ format: 'uuid' }), snippet: Type.String({ description: 'A short excerpt around the name' }), cue: Type.String() },
        { additionalProperties: false },
      ),
      { description: 'A few answers naming it (strongest cue first, then oldest); GET /api/v1/responses/{id} shows one in full' },
    ),
    updated_at: IsoDateTime,
  },
  { additionalProperties: false, description: 'Why competitor discovery proposed this brand; absent for brands configured by hand' },
)

export const discoverBrandsRoute = {
  config: { access: { scopes: ['manage:workspace' as const] } },
  schema: {
    summary: 'Discover competitors',
    description:
      'Queues a scan of the workspace\'s stored answers for brands they name that are not configured (list items, bold text, headings and capitalised names recurring across answers; never a configured or rejected brand, an AI provider\'s own name or a common word). Each finding becomes a brand with discovery_status "suggested" and is_active false, its evidence on GET /api/v1/brands/{id} (`discovery`); list them with GET /api/v1/brands?discovery_status=suggested&is_active=false. PATCH discovery_status "confirmed" with is_active true adopts one (re-analysis follows), "rejected" keeps it from being proposed again. A re-run updates the evidence of existing suggestions. Follow the job with GET /api/v1/jobs/{id}; its result lists the suggestions. Scope manage:workspace.',
    tags: ['management'],
    querystring: Type.Object({}, { additionalProperties: false }),
    body: Type.Optional(Type.Object({}, { additionalProperties: false })),
    response: Responses(
      EnvelopeWithJob(
        Type.Object(
          { suggested: Type.Integer({ description: 'Brands suggested now, before this scan (it adds or updates suggestions when it ends)' }) },
          { additionalProperties: false },
        ),
      ),
      202,
    ),
  },
}
