export const SCOPES = ['read:analytics', 'export:data', 'write:data', 'manage:workspace'] as const
export type Scope = (typeof SCOPES)[number]

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value)

export const TIERS = ['basic', 'premium'] as const
export type Tier = (typeof TIERS)[number]
export const isTier = (value: string): value is Tier => (TIERS as readonly string[]).includes(value)

/** What a route needs; declared in the route's `config.access`, checked once by the auth hook. */
export interface AccessRequirement {
  scopes: Scope[]
  tier?: Tier
}

export const DEFAULT_ACCESS: AccessRequirement = { scopes: ['read:analytics'] }
