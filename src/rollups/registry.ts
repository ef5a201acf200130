// Every rollup family, in the order the engine maintains them: workspace_url first, since
// the URL families read the numbers it hands out.
import { CALENDAR_UNITS } from '../core/date-range.js'
import { brandDomainStats } from './families/brand-domain-stats.js'
import { brandTotals } from './families/brand-totals.js'
import { domainStats } from './families/domain-stats.js'
import { mentionStats, mentionStatsByProvider } from './families/mention-stats.js'
import { workspaceDomain, workspaceUrl } from './families/numbering.js'
import { domainPromptDays, domainProviderDays, domainTagDays, promptDays, urlProviderDays } from './families/presence.js'
import { promptBrandStats } from './families/prompt-brand-stats.js'
import { promptDomainStats, promptMentionedResponses, promptMentionStats, promptResponseStats } from './families/prompt-detail-stats.js'
import { promptStats } from './families/prompt-stats.js'
import { responseStats, responseStatsByProvider } from './families/response-stats.js'
import { responseTotals } from './families/response-totals.js'
import { urlStats } from './families/url-stats.js'
import type { RollupFamily } from './types.js'

export const FAMILIES = [
  workspaceUrl,
  workspaceDomain,
  responseStats,
  responseStatsByProvider,
  responseTotals,
  mentionStats,
  mentionStatsByProvider,
  brandTotals,
  promptStats,
  promptBrandStats,
  promptResponseStats,
  promptMentionStats,
  promptMentionedResponses,
  promptDomainStats,
  domainStats,
  urlStats,
  brandDomainStats,
  domainPromptDays,
  domainProviderDays,
  domainTagDays,
  urlProviderDays,
  promptDays,
] as const

export type FamilyName = (typeof FAMILIES)[number]['name']

const byName = new Map<string, RollupFamily>(FAMILIES.map((family) => [family.name, family]))

export function family(name: FamilyName): RollupFamily {
  const found = byName.get(name)
  if (!found) throw new Error(`no rollup family ${name}`)
  return found
}

/** The table names of a family: daily, monthly, quarterly, yearly, or its one table. */
export function familyTables(f: RollupFamily): string[] {
  const tables = f.tables
  return 'none' in tables ? [tables.none] : [tables.day, ...CALENDAR_UNITS.map((unit) => tables[unit])].filter((table) => table !== undefined)
}

/** Every rollup table, in maintenance order. */
export const ROLLUP_TABLES: readonly string[] = FAMILIES.flatMap((f) => familyTables(f))

/** Families whose measures are all sums of mention facts: their contribution can be subtracted. */
export function isRetractable(f: RollupFamily): boolean {
  const rules = Object.values(f.measures)
  return f.facts === 'mention' && rules.length > 0 && rules.every((rule) => rule === 'sum')
}

/** Families keyed by a dimension. */
export function familiesWithDimension(dimension: string): FamilyName[] {
  return FAMILIES.filter((f) => (f.dimensions as readonly string[]).includes(dimension)).map((f) => f.name)
}

/** The families to rebuild when a prompt's tags change: those keyed by its tag set or by one of its tags. */
export function familiesAffectedByPromptTags(): FamilyName[] {
  return [...familiesWithDimension('tags'), ...familiesWithDimension('tag')]
}
