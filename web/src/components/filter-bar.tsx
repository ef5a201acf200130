// Period and filters, read from and written to the URL (each change is a history entry).
import type { FilterValues } from '../lib/api'
import { navigate, useLocation } from '../lib/router'
import { useApi } from '../lib/session'
import { isDate, PRESETS, presetRange, withFilters, type Filters, type Preset } from '../lib/url-state'
import { useFilters } from '../lib/use-filters'

const PRESET_LABELS: Record<Preset, string> = { '7d': 'Last 7 days', '30d': 'Last 30 days', '90d': 'Last 90 days', custom: 'Custom dates' }

export function FilterBar({ providers = true, models = true }: { providers?: boolean; models?: boolean }) {
  const { pathname, search } = useLocation()
  const filters = useFilters()
  const values = useApi<FilterValues>('/filters')
  const apply = (next: Filters) => navigate(pathname + withFilters(search, next))
  const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value].sort())

  return (
    <form className="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      <label>
        Period
        <select
          name="period"
          value={filters.preset}
          onChange={(e) => {
            const preset = e.target.value as Preset
            apply(preset === 'custom' ? { ...filters, preset } : { ...filters, preset, ...presetRange(preset, todayOf()) })
          }}
        >
          {PRESETS.map((p) => (
            <option key={p} value={p}>
              {PRESET_LABELS[p]}
            </option>
          ))}
        </select>
      </label>
      <label>
        From
        <input
          type="date"
          name="start"
          value={filters.start}
          max={filters.end}
          onChange={(e) => isDate(e.target.value) && apply({ ...filters, preset: 'custom', start: e.target.value })}
        />
      </label>
      <label>
        To
        <input
          type="date"
          name="end"
          value={filters.end}
          min={filters.start}
          onChange={(e) => isDate(e.target.value) && apply({ ...filters, preset: 'custom', end: e.target.value })}
        />
      </label>
      {values.data && providers && (
        <fieldset>
          <legend>Providers</legend>
          {values.data.providers.map((p) => (
            <label key={p} className="check">
              <input
                type="checkbox"
                name="providers"
                value={p}
                checked={filters.providers.includes(p)}
                onChange={() => apply({ ...filters, providers: toggle(filters.providers, p) })}
              />
              {p}
            </label>
          ))}
        </fieldset>
      )}
      {values.data && models && values.data.models.length > 0 && (
        <details className="multi">
          <summary>Models{filters.models.length ? ` (${filters.models.length})` : ''}</summary>
          <fieldset>
            <legend className="sr-only">Models</legend>
            {values.data.models.map((m) => (
              <label key={m.id} className="check">
                <input
                  type="checkbox"
                  name="models"
                  value={m.id}
                  checked={filters.models.includes(m.id)}
                  onChange={() => apply({ ...filters, models: toggle(filters.models, m.id) })}
                />
                {m.name}
              </label>
            ))}
          </fieldset>
        </details>
      )}
      {values.data && values.data.tags.length > 0 && (
        <details className="multi">
          <summary>Tags{filters.tags.length ? ` (${filters.tags.length})` : ''}</summary>
          <fieldset>
            <legend className="sr-only">Tags</legend>
            {values.data.tags.map((t) => (
              <label key={t} className="check">
                <input type="checkbox" name="tags" value={t} checked={filters.tags.includes(t)} onChange={() => apply({ ...filters, tags: toggle(filters.tags, t) })} />
                {t}
              </label>
            ))}
          </fieldset>
        </details>
      )}
      {(filters.providers.length > 0 || filters.models.length > 0 || filters.tags.length > 0 || filters.preset !== '30d') && (
        <button
          type="button"
          className="link"
          onClick={() => navigate(pathname + withFilters(search, { ...filters, preset: '30d', ...presetRange('30d', todayOf()), providers: [], models: [], tags: [] }))}
        >
          Reset
        </button>
      )}
    </form>
  )
}

const todayOf = () => new Date().toISOString().slice(0, 10)
