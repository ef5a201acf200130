// The read rule (docs/rollups.md): a read may use a rollup family only if every ACTIVE filter
// is in the family's allow-list. A filter added later is not in any list, so reads carrying
// it fall back to the facts until a family declares it.
import { family, type FamilyName } from './registry.js'
import type { FilterName, RollupFamily } from './types.js'

// from/to are the range's bounds as timestamps: the same filter.
const ALIASES: Readonly<Record<string, FilterName>> = { from: 'range', to: 'range' }

/**
 * The names of the filters that restrict the read: present and, for lists, non-empty.
 * Unknown keys are returned as they are, so no family serves them.
 */
export function activeFilters(filters: object): string[] {
  const active = new Set<string>()
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null) continue
    if (Array.isArray(value) && value.length === 0) continue
    active.add(ALIASES[key] ?? key)
  }
  return [...active]
}

/** True when every active filter is one the family (or each of the families) can apply. */
export function rollupServes(families: FamilyName | RollupFamily | readonly (FamilyName | RollupFamily)[], filters: object): boolean {
  const list = Array.isArray(families) ? families : [families]
  const active = activeFilters(filters)
  return list.every((f: FamilyName | RollupFamily) => {
    const serves: readonly string[] = (typeof f === 'string' ? family(f) : f).serves
    return active.every((name) => serves.includes(name))
  })
}
