// Sets of things a workspace has ever been cited for. workspace_domain (migration 0003)
// lets distinct-domain counts probe each domain once; workspace_url (migration 0007)
// numbers cited URLs so the URL rollups group and join on a bigint instead of long text.
import { sql } from 'kysely'
import { defineFamily } from '../types.js'

export const workspaceDomain = defineFamily({
  name: 'workspace-domain',
  tables: { none: 'workspace_domain' },
  dimensions: ['domain'],
  measures: {},
  serves: [],
  facts: 'citation',
  select: (scope) => sql`select distinct c.workspace_id, c.domain from ${scope.facts('citation', 'c')} where ${scope.on('c')}`,
})

export const workspaceUrl = defineFamily({
  name: 'workspace-url',
  tables: { none: 'workspace_url' },
  dimensions: ['url'],
  measures: { domain: 'keep' },
  serves: [],
  facts: 'citation',
  // The numbers are stored in other rollups: a rebuild only numbers URLs not seen yet.
  stableIds: true,
  select: (scope) => sql`select c.workspace_id, c.url, min(c.domain) as domain from ${scope.facts('citation', 'c')} where ${scope.on('c')} group by 1, 2`,
})
