// What kind of source a cited domain is. Brands decide owned/competitor, a shipped and
// reviewable list (data/source-domains.json) names well-known sites, and public-suffix
// rules catch governments and universities that no list could enumerate.
import { readFileSync } from 'node:fs'
import { getPublicSuffix } from 'tldts'
import { registrableDomain, toHostname } from './urls.js'

export type SourceType = 'owned' | 'competitor' | 'ugc' | 'reference' | 'institutional' | 'editorial' | 'other'

export interface SourceContext {
  ownedDomains: string[]
  competitorDomains: string[]
}

export const LISTED_SOURCE_TYPES = ['reference', 'ugc', 'editorial', 'institutional'] as const
export type ListedSourceType = (typeof LISTED_SOURCE_TYPES)[number]

/** The shipped domain list, validated: category → registrable domains. */
export function loadSourceDomains(): Record<ListedSourceType, string[]> {
  const raw = JSON.parse(readFileSync(new URL('./data/source-domains.json', import.meta.url), 'utf8')) as Record<string, unknown>
  const lists = {} as Record<ListedSourceType, string[]>
  for (const type of LISTED_SOURCE_TYPES) {
    const list = raw[type]
    if (!Array.isArray(list) || !list.every((d) => typeof d === 'string')) {
      throw new Error(`source-domains.json: "${type}" must be an array of domains`)
    }
    lists[type] = list.map((d) => d.trim().toLowerCase())
  }
  return lists
}

let listedTypes: Map<string, ListedSourceType> | null = null

function listedTypeByDomain(): Map<string, ListedSourceType> {
  if (listedTypes === null) {
    listedTypes = new Map()
    for (const [type, domains] of Object.entries(loadSourceDomains()) as [ListedSourceType, string[]][]) {
      for (const domain of domains) listedTypes.set(domain, type)
    }
  }
  return listedTypes
}

// Labels that, inside a public suffix, mark government, military, academic or public
// service registrations: gov.uk, ac.uk, edu.au, gob.mx, gouv.fr, govt.nz, go.jp, gv.at,
// sch.uk, nhs.uk, police.uk, k12.ca.us … A last label of gov/edu/mil/int is the generic
// TLD itself. Only the suffix is inspected, so gov.example.com is not institutional.
const INSTITUTIONAL_TLDS = new Set(['gov', 'edu', 'mil', 'int'])
const INSTITUTIONAL_SECOND_LEVEL = new Set(['gov', 'edu', 'mil', 'ac', 'gob', 'gouv', 'govt', 'go', 'gv', 'sch', 'k12', 'nhs', 'police'])

/** True when the host's public suffix is a government/military/academic one. */
export function hasInstitutionalSuffix(host: string): boolean {
  const suffix = getPublicSuffix(host)
  if (!suffix) return false
  const labels = suffix.split('.')
  if (INSTITUTIONAL_TLDS.has(labels[labels.length - 1])) return true
  for (let i = 0; i < labels.length - 1; i++) if (INSTITUTIONAL_SECOND_LEVEL.has(labels[i])) return true
  return false
}

/** A classifier for one workspace's brands; reuse it for all citations of a batch. */
export function compileSourceClassifier(ctx: SourceContext): (domain: string) => SourceType {
  const owned = registrableSet(ctx.ownedDomains)
  const competitors = registrableSet(ctx.competitorDomains)
  return (domain) => {
    const host = toHostname(domain)
    if (host === null) return 'other'
    const site = registrableDomain(host) ?? host
    // Owned first: a domain configured for both the primary brand and a competitor
    // (a shared parent company) is the user's own.
    if (owned.has(site)) return 'owned'
    if (competitors.has(site)) return 'competitor'
    const listed = lookupListed(host)
    if (listed !== null) return listed
    if (hasInstitutionalSuffix(host)) return 'institutional'
    return 'other'
  }
}

/** Source type of a cited domain (a registrable domain or any hostname/URL). */
export function classifySource(domain: string, ctx: SourceContext): SourceType {
  return compileSourceClassifier(ctx)(domain)
}

function registrableSet(domains: readonly (string | null | undefined)[] | undefined): Set<string> {
  const set = new Set<string>()
  for (const d of domains ?? []) {
    if (!d) continue
    const site = registrableDomain(d)
    if (site !== null) set.add(site)
  }
  return set
}

// Tries the host and each parent down to two labels, so `foo.blogspot.com` (its own
// registrable domain under the private suffix list) still finds the `blogspot.com` entry.
function lookupListed(host: string): ListedSourceType | null {
  const listed = listedTypeByDomain()
  let candidate = host
  for (;;) {
    const type = listed.get(candidate)
    if (type !== undefined) return type
    const dot = candidate.indexOf('.')
    if (dot === -1 || candidate.indexOf('.', dot + 1) === -1) return null
    candidate = candidate.slice(dot + 1)
  }
}
