import { Type } from 'typebox'
import { Envelope, IsoDateTime, Responses } from '../../../../http/schemas.js'

export const JobSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    type: Type.String({
      description: 'reanalysis (after a brand change), rollups_rebuild (after a prompt tag change) or discovery (POST /api/v1/brands/discover: answers scanned)',
    }),
    state: Type.Enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
    progress: Type.Object(
      {
        done: Type.Integer({ minimum: 0 }),
        total: Type.Integer({ minimum: 0, description: 'Items to go through (responses and AI overviews for a re-analysis); 0 until the job starts' }),
      },
      { additionalProperties: false },
    ),
    created_at: IsoDateTime,
    started_at: Type.Union([IsoDateTime, Type.Null()]),
    finished_at: Type.Union([IsoDateTime, Type.Null()]),
    error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false }), Type.Null()]),
    result: Type.Unknown({ description: 'What the job did, once succeeded (e.g. {responses, observations, seconds}); null before' }),
  },
  { additionalProperties: false },
)

// Any malformed id is simply an unknown job: 404, like an id of another workspace.
export const getJobSchema = {
  summary: 'A background job',
  description: 'State and progress of a job a write queued (e.g. the re-analysis after a brand change). Any scope of the workspace; jobs of other workspaces are not found.',
  tags: ['management'],
  params: Type.Object({ job_id: Type.String({ maxLength: 200, description: 'Job id, from the `job` of the write that queued it' }) }),
  querystring: Type.Object({}, { additionalProperties: false }),
  response: Responses(Envelope(JobSchema, { message: false })),
}
