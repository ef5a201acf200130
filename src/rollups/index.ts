// The rollup registry and its engine (docs/rollups.md); see README.md.
export { maintainRollups, maintenanceStatements, retractMentionRollups, addMentionRollups, rebuildRollups, analyzeIfStale, type RebuildOptions } from './engine.js'
export { tenantTables, deleteWorkspaceData, rowLevelSecurityStatements, deleteOrder } from './tenant-tables.js'
export { rollupServes, activeFilters } from './read-rule.js'
export { FAMILIES, ROLLUP_TABLES, family, familyTables, familiesAffectedByPromptTags, familiesWithDimension, isRetractable, type FamilyName } from './registry.js'
export type { Bucket, FilterName, MergeRule, RollupFamily, RollupScope } from './types.js'
