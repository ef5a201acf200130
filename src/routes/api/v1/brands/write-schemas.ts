import { Type } from 'typebox'
import { EnvelopeWithJob, IsoDateTime, Responses, UuidParam } from '../../../../http/schemas.js'
import { MAX_ALIASES_PER_BRAND, MAX_BRANDS_PER_WORKSPACE, MAX_TERM_LENGTH } from '../../../../core/limits.js'

const brandFields = {
  name: Type.String({ minLength: 1, maxLength: MAX_TERM_LENGTH, description: 'Unique in the workspace (case-insensitive)' }),
  domain: Type.Union([Type.String({ maxLength: 253, description: 'Hostname such as acme.com; also matched as a term' }), Type.Null()]),
  aliases: Type.Array(Type.String({ maxLength: MAX_TERM_LENGTH }), {
    maxItems: MAX_ALIASES_PER_BRAND,
    description: `Other names to match; trimmed and de-duplicated; at most ${MAX_ALIASES_PER_BRAND}, each at most ${MAX_TERM_LENGTH} characters`,
  }),
  icon_url: Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]),
  is_primary: Type.Boolean({ description: "The workspace's own brand; at most one" }),
  is_active: Type.Boolean(),
  discovery_status: Type.Enum(['confirmed', 'suggested', 'rejected']),
}

export const ManagedBrand = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    domain: Type.Union([Type.String(), Type.Null()]),
    aliases: Type.Array(Type.String()),
    icon_url: Type.Union([Type.String(), Type.Null()]),
    is_primary: Type.Boolean(),
    is_active: Type.Boolean(),
    discovery_status: Type.String(),
    created_at: IsoDateTime,
    updated_at: IsoDateTime,
  },
  { additionalProperties: false },
)

const access = { scopes: ['manage:workspace' as const] }

export const createBrandRoute = {
  config: { access },
  schema: {
    summary: 'Create a brand',
    description: `Adds a brand (your own or a competitor) and queues a re-analysis of the workspace's stored responses so history includes it; the answer carries the job (follow it with GET /api/v1/jobs/{id}). A workspace has at most ${MAX_BRANDS_PER_WORKSPACE} brands. Scope manage:workspace.`,
    tags: ['management'],
    querystring: Type.Object({}, { additionalProperties: false }),
    body: Type.Object(
      {
        name: brandFields.name,
        domain: Type.Optional(brandFields.domain),
        aliases: Type.Optional(brandFields.aliases),
        icon_url: Type.Optional(brandFields.icon_url),
        is_primary: Type.Optional(brandFields.is_primary),
        is_active: Type.Optional(brandFields.is_active),
        discovery_status: Type.Optional(brandFields.discovery_status),
      },
      { additionalProperties: false },
    ),
    response: Responses(EnvelopeWithJob(ManagedBrand), 201),
  },
}

export const updateBrandRoute = {
  config: { access },
  schema: {
    summary: 'Update a brand',
    description:
      'Changes only the fields sent. A change to name, aliases, domain or is_active queues a re-analysis of stored responses; the answer then carries the job. Scope manage:workspace.',
    tags: ['management'],
    params: Type.Object({ brand_id: UuidParam('Brand id') }),
    querystring: Type.Object({}, { additionalProperties: false }),
    body: Type.Object(
      {
        name: Type.Optional(brandFields.name),
        domain: Type.Optional(brandFields.domain),
        aliases: Type.Optional(brandFields.aliases),
        icon_url: Type.Optional(brandFields.icon_url),
        is_primary: Type.Optional(brandFields.is_primary),
        is_active: Type.Optional(brandFields.is_active),
        discovery_status: Type.Optional(brandFields.discovery_status),
      },
      { additionalProperties: false },
    ),
    response: Responses(EnvelopeWithJob(ManagedBrand)),
  },
}
