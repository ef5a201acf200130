// Collection routes (docs/collection.md): targets, credentials, runs and their non-answers.
import { Type } from 'typebox'
import { Envelope, ErrorEnvelope, IsoDateTime, Page, PaginationWithNav, PerPage, Responses, UuidParam } from '../../../../http/schemas.js'
import { PROVIDERS } from '../../../../core/providers.js'
import { CREDENTIAL_PROVIDERS } from '../../../../collection/credentials.js'
import { MAX_TARGETS_PER_WORKSPACE } from '../../../../collection/targets.js'
import { NON_ANSWER_OUTCOMES } from '../../../../collection/non-answer-view.js'

const manage = { scopes: ['manage:workspace' as const] }
const write = { scopes: ['write:data' as const] }
const NoQuery = Type.Object({}, { additionalProperties: false })
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

export const RUNS_PER_PAGE = 20
export const NON_ANSWERS_PER_PAGE = 50

const targetFields = {
  kind: Type.Enum(['answer', 'aio'], { description: '`answer` (default) asks an AI provider; `aio` records whether a search shows an AI overview, and its text' }),
  provider: Type.Enum([...PROVIDERS], { description: 'Answer targets: the catalogue provider the answers are stored under (the `models` filter)' }),
  model: Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '\\S',
    description: 'Answer targets: the model to ask, e.g. gpt-4o-mini, claude-sonnet-4-5, gemini-2.5-flash, sonar',
  }),
  api: Type.Enum(['native', 'openai_compatible', 'demo'], {
    description:
      "`native` (default): the provider's own API and SDK. `openai_compatible`: chat completions at base_url (OpenRouter, Azure, vLLM, Ollama…). `demo`: Beacon's built-in simulator, no network and no key (also for AIO targets).",
  }),
  base_url: Nullable(Type.String({ maxLength: 2000, description: 'openai_compatible only: the API base, e.g. http://127.0.0.1:11434/v1' })),
  web_search: Type.Boolean({ description: 'Answer targets: let the engine search the web as users see it; its cited sources become citations' }),
  serp: Type.Enum(['serpapi', 'dataforseo'], { description: 'AIO targets: the search API that reports the AI overview' }),
  locale: Type.String({
    minLength: 2,
    maxLength: 20,
    pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
    description: 'AIO targets: language-country of the search, e.g. en-US (default)',
  }),
  samples: Type.Integer({ minimum: 1, maximum: 10, description: 'Answers per prompt and run (answers vary; more samples, steadier numbers). Default 1.' }),
  schedule: Type.String({ minLength: 1, maxLength: 100, description: 'Cron expression, 5 fields, read in `timezone`. Default "0 6 * * *" (06:00 daily).' }),
  timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of the schedule. Default UTC.' }),
  enabled: Type.Boolean({ description: 'Disabled targets are not scheduled and not in runs that name no targets' }),
  credential: Nullable(
    Type.String({ maxLength: 64, description: "Name of a stored credential (PUT /collection/credentials/{name}); null: the provider's environment variable (OPENAI_API_KEY, …)" }),
  ),
}

export const TargetSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    kind: Type.Enum(['answer', 'aio']),
    provider: Nullable(Type.String()),
    model: Nullable(Type.String()),
    api: Nullable(Type.Enum(['native', 'openai_compatible', 'demo'])),
    base_url: Nullable(Type.String()),
    web_search: Type.Boolean(),
    serp: Nullable(Type.Enum(['serpapi', 'dataforseo'])),
    locale: Nullable(Type.String()),
    samples: Type.Integer(),
    schedule: Type.String(),
    timezone: Type.String(),
    next_run_at: Nullable(IsoDateTime),
    enabled: Type.Boolean(),
    credential: Nullable(Type.String()),
    flagged: Type.Boolean({ description: 'The provider refused the credential (401/403): the target is skipped until it is edited or its credential replaced' }),
    flag_reason: Nullable(Type.String()),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  },
  { additionalProperties: false },
)

const TargetBody = Type.Object(
  {
    kind: Type.Optional(targetFields.kind),
    provider: Type.Optional(targetFields.provider),
    model: Type.Optional(targetFields.model),
    api: Type.Optional(targetFields.api),
    base_url: Type.Optional(targetFields.base_url),
    web_search: Type.Optional(targetFields.web_search),
    serp: Type.Optional(targetFields.serp),
    locale: Type.Optional(targetFields.locale),
    samples: Type.Optional(targetFields.samples),
    schedule: Type.Optional(targetFields.schedule),
    timezone: Type.Optional(targetFields.timezone),
    enabled: Type.Optional(targetFields.enabled),
    credential: Type.Optional(targetFields.credential),
  },
  { additionalProperties: false },
)

const TargetParams = Type.Object({ target_id: UuidParam('Collection target id') })
const RunParams = Type.Object({ run_id: UuidParam('Collection run id') })
const CredentialParams = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._-]+$', description: 'Your name for the key, unique in the workspace: letters, digits, . _ -' }),
})

export const listTargetsRoute = {
  schema: {
    summary: 'Collection targets',
    description: 'What Beacon asks on its own: every answer and AI-overview target of the workspace. Scope read:analytics.',
    tags: ['collection'],
    querystring: NoQuery,
    response: Responses(Envelope(Type.Array(TargetSchema), { message: false })),
  },
}

export const getTargetRoute = {
  schema: { summary: 'A collection target', tags: ['collection'], params: TargetParams, querystring: NoQuery, response: Responses(Envelope(TargetSchema, { message: false })) },
}

export const createTargetRoute = {
  config: { access: manage },
  schema: {
    summary: 'Add a collection target',
    description: `An answer target {provider, model, api?, base_url?, web_search?} or an AI-overview target {kind: "aio", serp, locale?}, plus samples, schedule (cron, default "0 6 * * *"), timezone (default UTC), enabled, credential. At most ${MAX_TARGETS_PER_WORKSPACE} per workspace. Scope manage:workspace.`,
    tags: ['collection'],
    querystring: NoQuery,
    body: TargetBody,
    response: Responses(Envelope(TargetSchema, { message: true }), 201),
  },
}

export const updateTargetRoute = {
  config: { access: manage },
  schema: {
    summary: 'Change a collection target',
    description: 'Changes only the fields sent (kind cannot change). Any change clears a flag set by a refused credential. Scope manage:workspace.',
    tags: ['collection'],
    params: TargetParams,
    querystring: NoQuery,
    body: TargetBody,
    response: Responses(Envelope(TargetSchema, { message: true })),
  },
}

export const deleteTargetRoute = {
  config: { access: manage },
  schema: {
    summary: 'Delete a collection target',
    description: 'Its stored answers and past runs stay; its queued answers are skipped. Scope manage:workspace.',
    tags: ['collection'],
    params: TargetParams,
    querystring: NoQuery,
    response: Responses(Envelope(Type.Object({ id: Type.String({ format: 'uuid' }), deleted: Type.Literal(true) }, { additionalProperties: false }), { message: true })),
  },
}

export const CredentialSchema = Type.Object(
  {
    name: Type.String(),
    provider: Type.String(),
    last_four: Type.String({ description: 'The last 4 characters of the key; the key itself is never returned' }),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  },
  { additionalProperties: false },
)

export const listCredentialsRoute = {
  config: { access: manage },
  schema: {
    summary: 'Stored provider credentials',
    description: 'Names, providers and last 4 characters of the stored keys (never the keys). Scope manage:workspace.',
    tags: ['collection'],
    querystring: NoQuery,
    response: Responses(Envelope(Type.Array(CredentialSchema), { message: false })),
  },
}

export const putCredentialRoute = {
  config: { access: manage },
  schema: {
    summary: 'Store a provider credential',
    description:
      'Stores (or replaces) a provider API key, encrypted with AES-256-GCM under BEACON_SECRET_KEY (503 when the server has none). It is never returned or logged; lists show its last 4 characters. Targets name it in `credential`. Scope manage:workspace.',
    tags: ['collection'],
    params: CredentialParams,
    querystring: NoQuery,
    body: Type.Object(
      {
        provider: Type.Enum(CREDENTIAL_PROVIDERS, { description: 'Which API the key is for' }),
        api_key: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S', description: "The provider's API key" }),
      },
      { additionalProperties: false },
    ),
    response: Responses(Envelope(CredentialSchema, { message: true })),
  },
}

export const deleteCredentialRoute = {
  config: { access: manage },
  schema: {
    summary: 'Delete a provider credential',
    description: 'Refused (400) while a target names it. Scope manage:workspace.',
    tags: ['collection'],
    params: CredentialParams,
    querystring: NoQuery,
    response: Responses(Envelope(Type.Object({ name: Type.String(), deleted: Type.Literal(true) }, { additionalProperties: false }), { message: true })),
  },
}

export const RunSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    state: Type.Enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
    trigger: Type.Enum(['manual', 'schedule']),
    target_ids: Nullable(Type.Array(Type.String({ format: 'uuid' }), { description: 'The targets asked; null: every enabled target' })),
    prompt_ids: Nullable(Type.Array(Type.String({ format: 'uuid' }), { description: 'The prompts asked; null: every active prompt' })),
    planned: Type.Integer({ description: 'Answers to ask: prompts × targets × samples (0 until planned)' }),
    succeeded: Type.Integer(),
    failed: Type.Integer(),
    duplicates: Type.Integer({ description: 'Answers whose external_id was already stored: not stored twice' }),
    skipped: Type.Integer({ description: 'Answers not asked: run cancelled, budget reached, target removed' }),
    refused: Type.Integer({ description: 'The engine declined: refusal, content filter, safety block, blocked prompt. Not stored as responses' }),
    incomplete: Type.Integer({ description: 'Cut by the output limit, also after one retry with a larger limit. Not stored as responses' }),
    search_failed: Type.Integer({ description: "The engine's own web search failed on every attempt. Not stored as responses" }),
    quota_exhausted: Type.Integer({
      description: 'The provider account is out of credit or daily quota (the target is flagged). Not stored as responses. All counters add up to planned',
    }),
    answers_counted: Type.Integer({ description: 'Planned answers that have an outcome: the sum of every counter above; equals planned once the run has ended' }),
    tokens_in: Type.Integer(),
    tokens_out: Type.Integer(),
    cost_usd: Type.Number(),
    created_at: IsoDateTime,
    started_at: Nullable(IsoDateTime),
    finished_at: Nullable(IsoDateTime),
    errors: Type.Array(
      Type.Object(
        {
          target_id: Type.String({ format: 'uuid' }),
          code: Type.String({
            description:
              'unauthorized, forbidden, bad_request, rate_limited, server, timeout, network, malformed, refused, incomplete, search_failed, unexpected_stop, quota_exhausted, budget_exceeded, …',
          }),
          message: Type.String(),
          count: Type.Integer(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
)

export const createRunRoute = {
  config: { access: write },
  schema: {
    summary: 'Start a collection run',
    description:
      'Asks every (or the named) target every (or the named) prompt, `samples` times each, in the background; answers are analysed and stored like ingested ones (external_id run:<run>:<target>:<prompt>:<sample>). Answers 202 with the run; follow it with GET /collection/runs/{id}. Scope write:data.',
    tags: ['collection'],
    querystring: NoQuery,
    body: Type.Object(
      {
        target_ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: MAX_TARGETS_PER_WORKSPACE, description: 'Default: every enabled target' })),
        prompt_ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 1000, description: 'Default: every active prompt' })),
      },
      { additionalProperties: false },
    ),
    response: { 202: Envelope(RunSchema, { message: true }), '4xx': ErrorEnvelope, '5xx': ErrorEnvelope },
  },
}

export const listRunsRoute = {
  schema: {
    summary: 'Collection runs',
    description: 'Newest first. Scope read:analytics.',
    tags: ['collection'],
    querystring: Type.Object({ page: Page, per_page: PerPage(RUNS_PER_PAGE) }, { additionalProperties: false }),
    response: Responses(Envelope(Type.Object({ runs: Type.Array(RunSchema), pagination: PaginationWithNav }, { additionalProperties: false }), { message: false })),
  },
}

export const getRunRoute = {
  schema: { summary: 'A collection run', tags: ['collection'], params: RunParams, querystring: NoQuery, response: Responses(Envelope(RunSchema, { message: false })) },
}

export const cancelRunRoute = {
  config: { access: write },
  schema: {
    summary: 'Cancel a collection run',
    description: 'Answers not yet asked are skipped; answers being asked finish. A finished run is returned unchanged. Scope write:data.',
    tags: ['collection'],
    params: RunParams,
    querystring: NoQuery,
    response: Responses(Envelope(RunSchema, { message: true })),
  },
}

const NonAnswerParams = Type.Object({ run_id: UuidParam('Collection run id'), non_answer_id: UuidParam('Non-answer id (from GET /collection/runs/{run_id}/non-answers)') })

const nonAnswerFields = {
  id: Type.String({ format: 'uuid' }),
  run_id: Type.String({ format: 'uuid' }),
  target_id: Type.String({ format: 'uuid' }),
  prompt_id: Type.String({ format: 'uuid' }),
  prompt: Nullable(Type.String({ description: 'The prompt asked; null once the prompt was deleted' })),
  outcome: Type.Enum([...NON_ANSWER_OUTCOMES], {
    description:
      '`refused`, `incomplete` (cut by the output limit), `search_failed`, `quota_exhausted`, or `unexpected_stop` (a stop value Beacon does not know; the answer counts as failed)',
  }),
  reason: Type.String({ description: "The provider's own field and value, e.g. `stop_reason: refusal`, `finishReason: SAFETY`, `error.code: insufficient_quota`" }),
  provider: Nullable(Type.String({ description: 'The provider (or SERP API) asked' })),
  model: Nullable(Type.String({ description: "The target's model; null once the target was deleted" })),
  model_served: Nullable(Type.String({ description: 'The model the provider says answered, when it said' })),
  sample: Type.Integer(),
  attempt: Type.Integer({ description: 'Attempts of one planned answer are numbered from 0: a cut answer asked again with a larger limit is attempt 1' }),
  tokens_in: Type.Integer(),
  tokens_out: Type.Integer(),
  cost_usd: Type.Number({ description: 'What the provider billed for it, charged to the run and the budget' }),
  created_at: IsoDateTime,
  has_raw: Type.Boolean({ description: "Whether the provider's JSON was kept (GET …/non-answers/{non_answer_id} returns it)" }),
}

export const NonAnswerSchema = Type.Object(nonAnswerFields, { additionalProperties: false })

export const listNonAnswersRoute = {
  schema: {
    summary: 'Why answers of a run were not stored',
    description:
      "Every attempt of the run that the provider did not complete (refused, cut short, search failed, out of quota, unknown stop), oldest first, with the provider's reason, the prompt and the target. Without the provider's raw JSON, which can be large: GET …/non-answers/{non_answer_id} returns it. Scope read:analytics.",
    tags: ['collection'],
    params: RunParams,
    querystring: Type.Object(
      {
        outcome: Type.Optional(Type.Enum([...NON_ANSWER_OUTCOMES], { description: 'Only this outcome' })),
        page: Page,
        per_page: PerPage(NON_ANSWERS_PER_PAGE),
      },
      { additionalProperties: false },
    ),
    response: Responses(Envelope(Type.Object({ non_answers: Type.Array(NonAnswerSchema), pagination: PaginationWithNav }, { additionalProperties: false }), { message: false })),
  },
}

export const getNonAnswerRoute = {
  schema: {
    summary: "One non-answer with the provider's JSON",
    description:
      "The non-answer and `raw`: the provider's response body (or error body, for an exhausted quota) as received, for audit and re-parsing. Request headers and keys are never stored, so never returned. Scope read:analytics.",
    tags: ['collection'],
    params: NonAnswerParams,
    querystring: NoQuery,
    response: Responses(
      Envelope(
        Type.Object({ ...nonAnswerFields, raw: Type.Unknown({ description: "The provider's JSON as received; null when none was kept" }) }, { additionalProperties: false }),
        { message: false },
      ),
    ),
  },
}
