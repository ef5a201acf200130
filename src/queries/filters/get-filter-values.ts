import type { DB } from '../../db/database.js'

export interface FilterValues {
  providers: string[]
  models: { id: string; provider: string; name: string }[]
  tags: string[]
  brands: { id: string; name: string; is_primary: boolean }[]
  date_range: { earliest_data: string | null; latest_data: string | null }
}

export async function getFilterValues(db: DB, workspaceId: string): Promise<FilterValues> {
  const [providers, models, tags, brands, range] = await Promise.all([
    db.selectFrom('provider').select('id').orderBy('id').execute(),
    db.selectFrom('model').select(['id', 'provider', 'name']).where('workspace_id', '=', workspaceId).orderBy('provider').orderBy('id').execute(),
    db
      .selectFrom('prompt')
      .select((eb) => eb.fn<string>('unnest', ['tags']).as('tag'))
      .where('workspace_id', '=', workspaceId)
      .distinct()
      .orderBy('tag')
      .execute(),
    db
      .selectFrom('brand')
      .select(['id', 'name', 'is_primary'])
      .where('workspace_id', '=', workspaceId)
      .where('is_active', '=', true)
      .orderBy('is_primary', 'desc')
      .orderBy('name')
      .execute(),
    db
      .selectFrom('response')
      .select((eb) => [eb.fn.min('created_at').as('earliest'), eb.fn.max('created_at').as('latest')])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst(),
  ])
  const day = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString().slice(0, 10) : null)
  return {
    providers: providers.map((p) => p.id),
    models,
    tags: tags.map((t) => t.tag),
    brands,
    date_range: { earliest_data: day(range?.earliest), latest_data: day(range?.latest) },
  }
}
