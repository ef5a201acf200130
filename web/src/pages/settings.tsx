// Settings: brands and prompts here; targets, provider keys, webhooks, notification channels
// and API keys in their own files (docs/dashboard.md: everything a team sets up, in the browser).
// A change that alters analysis answers at once and queues
// a re-analysis of stored history; its progress is shown until it ends.
import { lazy, Suspense, useState, type FormEvent } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { apiRequest, type Brand, type FilterValues, type Pagination, type PromptRow } from '../lib/api'
import { useApi, useSession } from '../lib/session'
import { usePage } from '../lib/use-filters'
import { Badge, ErrorBox, Link, Loading, Pager, QueryView, Section } from '../components/ui'
import { JobProgress } from '../components/job-progress'
import { formatCount } from '../lib/format'

const PER_PAGE = 50

export const splitList = (text: string): string[] => [
  ...new Set(
    text
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ),
]

// Each tab beyond brands and prompts is its own chunk, loaded when opened.
const TargetSettings = lazy(() => import('./settings-targets'))
const CredentialSettings = lazy(() => import('./settings-credentials'))
const WebhookSettings = lazy(() => import('./settings-webhooks').then((m) => ({ default: m.WebhookSettings })))
const NotificationSettings = lazy(() => import('./settings-webhooks').then((m) => ({ default: m.NotificationSettings })))
const KeySettings = lazy(() => import('./settings-keys'))

export const SETTINGS_TABS = [
  ['brands', 'Brands'],
  ['prompts', 'Prompts'],
  ['targets', 'Collection targets'],
  ['credentials', 'Provider keys'],
  ['webhooks', 'Webhooks'],
  ['notifications', 'Notifications'],
  ['keys', 'API keys'],
] as const

function SettingsTab({ tab }: { tab: string }) {
  switch (tab) {
    case 'prompts':
      return <PromptSettings />
    case 'targets':
      return <TargetSettings />
    case 'credentials':
      return <CredentialSettings />
    case 'webhooks':
      return <WebhookSettings />
    case 'notifications':
      return <NotificationSettings />
    case 'keys':
      return <KeySettings />
    default:
      return <BrandSettings />
  }
}

export default function Settings({ tab }: { tab: string; sub: string | null }) {
  return (
    <>
      <h1>Settings</h1>
      <nav className="tabs" aria-label="Settings">
        {SETTINGS_TABS.map(([name, label]) => (
          <Link key={name} to={`/settings/${name}`} aria-current={tab === name ? 'page' : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      <Suspense fallback={<Loading />}>
        <SettingsTab tab={tab} />
      </Suspense>
    </>
  )
}

/** Runs a write and keeps the job it queued (if any) and its error. */
function useWrite() {
  const { key } = useSession()
  const client = useQueryClient()
  const [job, setJob] = useState<string | null>(null)
  const [error, setError] = useState<Error | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const write = async (method: string, path: string, body: unknown, done: string): Promise<boolean> => {
    setError(null)
    setSaved(null)
    try {
      const result = await apiRequest(key, path, { method, body })
      if (result.job) setJob(result.job.id)
      setSaved(done)
      await client.invalidateQueries()
      return true
    } catch (e) {
      setError(e as Error)
      return false
    }
  }
  const status = (
    <div aria-live="polite">
      {saved && <p className="saved">{saved}</p>}
      {error && <ErrorBox error={error} />}
      {job && <JobProgress key={job} id={job} />}
    </div>
  )
  return { write, status }
}

function BrandSettings() {
  const page = usePage()
  const list = useApi<{ competitors: Brand[]; pagination: Pagination }>('/brands', new URLSearchParams({ page: String(page), per_page: String(PER_PAGE) }))
  // The spec's list parameters find the brands the main list leaves out: deactivated ones, and discovery's suggestions.
  const inactive = useApi<{ competitors: Brand[]; pagination: Pagination }>('/brands', new URLSearchParams({ is_active: 'false', discovery_status: 'confirmed', per_page: '100' }))
  const suggested = useApi<{ competitors: Brand[]; pagination: Pagination }>('/brands', new URLSearchParams({ is_active: 'false', discovery_status: 'suggested', per_page: '100' }))
  const { write, status } = useWrite()
  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const formElement = event.currentTarget
    const form = new FormData(formElement)
    const domain = String(form.get('domain') ?? '').trim()
    const ok = await write(
      'POST',
      '/brands',
      { name: String(form.get('name') ?? '').trim(), domain: domain || null, aliases: splitList(String(form.get('aliases') ?? '')) },
      'Brand added.',
    )
    if (ok) formElement.reset()
  }
  return (
    <>
      {status}
      <Section title="Add a brand">
        <form className="inline-form" onSubmit={(e) => void add(e)}>
          <label>
            Name
            <input name="name" required maxLength={200} />
          </label>
          <label>
            Domain
            <input name="domain" placeholder="acme.com" maxLength={253} />
          </label>
          <label>
            Aliases (comma-separated)
            <input name="aliases" placeholder="Acme Inc, ACME" />
          </label>
          <button type="submit">Add brand</button>
        </form>
      </Section>
      <QueryView query={list}>
        {(data) => (
          <Section title="Brands">
            <ul className="edit-list" data-testid="brand-settings">
              {data.competitors.map((b) => (
                <BrandRow key={b.id} brand={b} write={write} />
              ))}
            </ul>
            <Pager page={page} perPage={PER_PAGE} total={data.pagination.total_items} />
          </Section>
        )}
      </QueryView>
      <Section title="Suggested competitors">
        <p className="hint">
          Brands the answers name that you do not track yet (competitor discovery). Confirming one tracks it and re-analyses the stored answers; a rejected name is never suggested
          again.
        </p>
        <button type="button" onClick={() => void write('POST', '/brands/discover', {}, 'Looking for competitors in the stored answers…')}>
          Find competitors in the answers
        </button>
        <QueryView query={suggested}>
          {(data) =>
            data.competitors.length === 0 ? (
              <p className="state empty">No suggestions waiting.</p>
            ) : (
              <ul className="edit-list" data-testid="brand-suggestions">
                {data.competitors.map((b) => (
                  <SuggestionRow key={b.id} brand={b} write={write} />
                ))}
              </ul>
            )
          }
        </QueryView>
      </Section>
      <QueryView query={inactive}>
        {(data) =>
          data.competitors.length === 0 ? null : (
            <Section title="Inactive brands">
              <ul className="edit-list" data-testid="brand-inactive">
                {data.competitors.map((b) => (
                  <BrandRow key={b.id} brand={b} write={write} />
                ))}
              </ul>
            </Section>
          )
        }
      </QueryView>
    </>
  )
}

interface BrandExtras {
  aliases: string[]
  discovery?: { responses: number; examples: { response_id: string; snippet: string }[] }
}

/** The brand detail carries what the spec's list does not (aliases, discovery evidence); one day keeps it cheap. */
function useBrandExtras(id: string) {
  const today = new Date().toISOString().slice(0, 10)
  return useApi<BrandExtras>(`/brands/${id}`, new URLSearchParams({ start_date: today, end_date: today }))
}

function SuggestionRow({ brand, write }: { brand: Brand; write: ReturnType<typeof useWrite>['write'] }) {
  const extras = useBrandExtras(brand.id)
  const evidence = extras.data?.discovery
  const id = `suggestion-${brand.id}`
  return (
    <li>
      <div className="inline-form" aria-labelledby={id}>
        <strong id={id}>{brand.name}</strong>
        <Badge tone="suggested">suggested</Badge>
        {evidence && (
          <span className="hint">
            named in {formatCount(evidence.responses)} answers{evidence.examples[0] ? `: “${evidence.examples[0].snippet}”` : ''}
          </span>
        )}
        <button
          type="button"
          onClick={() => void write('PATCH', `/brands/${brand.id}`, { discovery_status: 'confirmed', is_active: true }, `${brand.name} confirmed and tracked.`)}
        >
          Confirm
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => void write('PATCH', `/brands/${brand.id}`, { discovery_status: 'rejected', is_active: false }, `${brand.name} rejected.`)}
        >
          Reject
        </button>
      </div>
    </li>
  )
}

function BrandRow({ brand, write }: { brand: Brand; write: ReturnType<typeof useWrite>['write'] }) {
  const extras = useBrandExtras(brand.id)
  const [domain, setDomain] = useState(brand.domain ?? '')
  const [aliases, setAliases] = useState<string | null>(null)
  const shown = aliases ?? (extras.data?.aliases ?? []).join(', ')
  const id = `brand-${brand.id}`
  const save = (event: FormEvent) => {
    event.preventDefault()
    const body: Record<string, unknown> = { domain: domain.trim() || null }
    // Only send aliases once they are known (loaded or typed): a list not shown must not be replaced by "".
    if (aliases !== null || extras.data) body.aliases = splitList(shown)
    void write('PATCH', `/brands/${brand.id}`, body, `${brand.name} saved.`)
  }
  return (
    <li>
      <form onSubmit={save} aria-labelledby={id} className="inline-form">
        <strong id={id}>{brand.name}</strong>
        {brand.is_primary && <Badge tone="owned">your brand</Badge>}
        {!brand.is_active && <Badge tone="muted">inactive</Badge>}
        <label>
          Domain
          <input value={domain} onChange={(e) => setDomain(e.target.value)} maxLength={253} />
        </label>
        <label>
          Aliases
          <input value={shown} onChange={(e) => setAliases(e.target.value)} placeholder="comma-separated" data-testid="brand-aliases" />
        </label>
        <button type="submit">Save</button>
        <button
          type="button"
          onClick={() => void write('PATCH', `/brands/${brand.id}`, { is_active: !brand.is_active }, `${brand.name} ${brand.is_active ? 'deactivated' : 'activated'}.`)}
        >
          {brand.is_active ? 'Deactivate' : 'Activate'}
        </button>
      </form>
    </li>
  )
}

function PromptSettings() {
  const values = useApi<FilterValues>('/filters')
  const brandId = values.data?.brands[0]?.id
  // Without per_page the route returns every prompt (docs/api-conventions.md); it needs some brand for its performance column.
  const list = useApi<{ prompts: PromptRow[] }>(brandId ? '/prompts' : null, brandId ? new URLSearchParams({ brand_id: brandId }) : undefined)
  const { write, status } = useWrite()
  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const formElement = event.currentTarget
    const form = new FormData(formElement)
    const ok = await write('POST', '/prompts', { text: String(form.get('text') ?? '').trim(), tags: splitList(String(form.get('tags') ?? '')) }, 'Prompt added.')
    if (ok) formElement.reset()
  }
  if (values.isPending) return <Loading />
  return (
    <>
      {status}
      <Section title="Add a prompt">
        <form className="inline-form" onSubmit={(e) => void add(e)}>
          <label className="grow">
            Question
            <input name="text" required maxLength={10000} />
          </label>
          <label>
            Tags (comma-separated)
            <input name="tags" />
          </label>
          <button type="submit">Add prompt</button>
        </form>
      </Section>
      {!brandId ? (
        <p className="state empty">Add a brand first: prompts are listed with a brand&apos;s performance.</p>
      ) : (
        <QueryView query={list}>
          {(data) => (
            <Section title="Prompts">
              <ul className="edit-list" data-testid="prompt-settings">
                {data.prompts.map((p) => (
                  <PromptRowEditor key={p.id} prompt={p} write={write} />
                ))}
              </ul>
            </Section>
          )}
        </QueryView>
      )}
    </>
  )
}

function PromptRowEditor({ prompt, write }: { prompt: PromptRow; write: ReturnType<typeof useWrite>['write'] }) {
  const [text, setText] = useState(prompt.text)
  const [tags, setTags] = useState(prompt.tags.join(', '))
  const save = (event: FormEvent) => {
    event.preventDefault()
    void write('PATCH', `/prompts/${prompt.id}`, { text: text.trim(), tags: splitList(tags) }, 'Prompt saved.')
  }
  return (
    <li>
      <form onSubmit={save} className="inline-form" aria-label={`Prompt: ${prompt.text}`}>
        <label className="grow">
          Question
          <input value={text} onChange={(e) => setText(e.target.value)} required maxLength={10000} />
        </label>
        <label>
          Tags
          <input value={tags} onChange={(e) => setTags(e.target.value)} />
        </label>
        <button type="submit">Save</button>
        <button
          type="button"
          onClick={() => void write('PATCH', `/prompts/${prompt.id}`, { is_active: !prompt.is_active }, `Prompt ${prompt.is_active ? 'deactivated' : 'activated'}.`)}
        >
          {prompt.is_active ? 'Deactivate' : 'Activate'}
        </button>
      </form>
    </li>
  )
}
