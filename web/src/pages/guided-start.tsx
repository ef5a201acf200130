// Guided start (docs/dashboard.md): a workspace with no brands opens here instead of on empty
// charts. Your brand and domain, competitors, prompts (with suggestions), one target (the demo
// provider pre-selected when no key is stored), the first run with live progress, then
// competitors discovered in the answers, then the overview. Every step writes through the
// same API routes the settings pages use.
import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { ApiBody, ApiData, Brand, CollectionRun, Credential, Pagination, SearchQueryRow } from '../lib/api'
import { formatCount } from '../lib/format'
import { navigate } from '../lib/router'
import { useApi } from '../lib/session'
import { splitList } from './settings'
import { ANSWER_PROVIDERS } from './settings-targets'
import { credentialName } from './settings-credentials'
import { useAction } from '../components/settings-kit'
import { Badge, Section } from '../components/ui'
import { JobProgress } from '../components/job-progress'

const STEPS = ['Your brand', 'Competitors', 'Prompts', 'Where to ask', 'First run', 'Done'] as const
const ACTIVE = new Set(['queued', 'running'])

/**
 * Prompt ideas for a category, as people ask AI engines: best-of lists, comparisons and
 * alternatives. With brand names, comparisons name them.
 */
export function promptSuggestions(category: string, brand: string, competitors: string[]): string[] {
  const c = category.trim()
  if (!c) return []
  const ideas = [
    `What are the best ${c} tools?`,
    `What is the best ${c} software for small teams?`,
    `Which ${c} tool is easiest to get started with?`,
    `What ${c} tools do experts recommend in ${new Date().getUTCFullYear()}?`,
    `What is the most affordable ${c} tool?`,
  ]
  if (brand) ideas.push(`Is ${brand} a good ${c} tool?`, `What are the alternatives to ${brand}?`)
  for (const competitor of competitors.slice(0, 3)) if (brand) ideas.push(`${brand} vs ${competitor}: which ${c} tool is better?`)
  return [...new Set(ideas)]
}

export default function GuidedStart() {
  const [step, setStep] = useState(0)
  const [brand, setBrand] = useState('')
  const [category, setCategory] = useState('')
  const [competitors, setCompetitors] = useState<string[]>([])
  const [runId, setRunId] = useState<string | null>(null)
  return (
    <>
      <h1>Welcome to Beacon</h1>
      <p className="hint">A few short steps and Beacon starts measuring how often AI engines name your brand. You can change everything later in Settings.</p>
      <ol className="steps" aria-label="Steps">
        {STEPS.map((label, index) => (
          <li key={label} aria-current={index === step ? 'step' : undefined} className={index < step ? 'done' : undefined}>
            {label}
          </li>
        ))}
      </ol>
      {step === 0 && (
        <BrandStep
          onDone={(name, type) => {
            setBrand(name)
            setCategory(type)
            setStep(1)
          }}
        />
      )}
      {step === 1 && (
        <CompetitorStep
          onDone={(names) => {
            setCompetitors(names)
            setStep(2)
          }}
        />
      )}
      {step === 2 && <PromptStep brand={brand} category={category} competitors={competitors} onDone={() => setStep(3)} />}
      {step === 3 && (
        <TargetStep
          onDone={(id) => {
            setRunId(id)
            setStep(4)
          }}
        />
      )}
      {step === 4 && runId && <RunStep id={runId} onDone={() => setStep(5)} />}
      {step === 5 && <DiscoveryStep brand={brand} category={category} />}
    </>
  )
}

function BrandStep({ onDone }: { onDone: (name: string, category: string) => void }) {
  const { run, status } = useAction()
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const name = String(data.get('name') ?? '').trim()
    const domain = String(data.get('domain') ?? '').trim()
    const body: ApiBody<'/brands', 'post'> = { name, domain: domain || null, is_primary: true }
    if (await run('POST', '/brands', body, 'save your brand')) onDone(name, String(data.get('category') ?? '').trim())
  }
  return (
    <Section title="1. Your brand">
      {status}
      <form className="inline-form" onSubmit={(e) => void submit(e)} aria-label="Your brand">
        <label>
          Brand name
          <input name="name" required maxLength={200} placeholder="Acme Boards" />
        </label>
        <label>
          Website domain
          <input name="domain" maxLength={253} placeholder="acmeboards.com" />
        </label>
        <label className="grow">
          What do you sell? (a category, for prompt ideas)
          <input name="category" maxLength={100} placeholder="project management" />
        </label>
        <button type="submit">Next</button>
      </form>
    </Section>
  )
}

function CompetitorStep({ onDone }: { onDone: (names: string[]) => void }) {
  const { run, status } = useAction()
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const names = splitList(String(new FormData(event.currentTarget).get('competitors') ?? '').replace(/\n/g, ','))
    for (const name of names) if (!(await run('POST', '/brands', { name }, `add ${name}`))) return
    onDone(names)
  }
  return (
    <Section title="2. Competitors">
      {status}
      <p className="hint">Type the competitors you know. Beacon also suggests the ones AI engines name in their answers after the first run.</p>
      <form className="inline-form" onSubmit={(e) => void submit(e)} aria-label="Competitors">
        <label className="grow">
          Competitors (comma-separated)
          <input name="competitors" placeholder="Trackory, Cadencia" />
        </label>
        <button type="submit">Next</button>
      </form>
    </Section>
  )
}

function PromptStep({ brand, category, competitors, onDone }: { brand: string; category: string; competitors: string[]; onDone: () => void }) {
  const { run, status } = useAction()
  const [topic, setTopic] = useState(category)
  const suggestions = promptSuggestions(topic, brand, competitors)
  const [picked, setPicked] = useState<Set<string> | null>(null)
  const chosen = picked ?? new Set(suggestions.slice(0, 3))
  const [own, setOwn] = useState('')
  const toggle = (text: string) => {
    const next = new Set(chosen)
    if (next.has(text)) next.delete(text)
    else next.add(text)
    setPicked(next)
  }
  const texts = [...chosen, ...own.split('\n').map((t) => t.trim())].filter(Boolean)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    for (const text of new Set(texts)) if (!(await run('POST', '/prompts', { text, tags: topic ? [topic.toLowerCase().slice(0, 50)] : [] }, 'add the prompt'))) return
    onDone()
  }
  return (
    <Section title="3. Prompts">
      {status}
      <p className="hint">The questions your buyers ask AI engines. Pick from the ideas or write your own.</p>
      <form onSubmit={(e) => void submit(e)} aria-label="Prompts">
        <div className="inline-form">
          <label className="grow">
            Category
            <input value={topic} onChange={(e) => (setTopic(e.target.value), setPicked(null))} placeholder="project management" />
          </label>
        </div>
        {suggestions.length > 0 && (
          <fieldset className="suggestions" data-testid="prompt-suggestions">
            <legend>Ideas</legend>
            {suggestions.map((s) => (
              <label key={s} className="check">
                <input type="checkbox" checked={chosen.has(s)} onChange={() => toggle(s)} /> {s}
              </label>
            ))}
          </fieldset>
        )}
        <label className="block">
          Your own (one per line)
          <textarea value={own} onChange={(e) => setOwn(e.target.value)} rows={3} />
        </label>
        <button type="submit" disabled={texts.length === 0}>
          Add {formatCount(new Set(texts).size)} prompt{new Set(texts).size === 1 ? '' : 's'}
        </button>
      </form>
    </Section>
  )
}

function TargetStep({ onDone }: { onDone: (runId: string) => void }) {
  const credentials = useApi<Credential[]>('/collection/credentials')
  const { run, status } = useAction()
  const [choice, setChoice] = useState<string | null>(null)
  // The demo provider is pre-selected while no key is stored (it needs none and asks no one).
  const selected = choice ?? (credentials.data && credentials.data.length > 0 ? credentials.data[0].provider : 'demo')
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const provider = ANSWER_PROVIDERS.find((p) => p.value === selected) ?? ANSWER_PROVIDERS[0]
    let credential: string | null = null
    const key = String(data.get('api_key') ?? '').trim()
    if (selected !== 'demo' && key) {
      credential = credentialName(provider.value)
      if (!(await run('PUT', `/collection/credentials/${credential}`, { provider: provider.value, api_key: key }, 'store the key'))) return
    } else if (selected !== 'demo') credential = credentials.data?.find((c) => c.provider === provider.value)?.name ?? null
    const body: ApiBody<'/collection/targets', 'post'> =
      selected === 'demo'
        ? { provider: 'openai', model: 'gpt-4o-mini', api: 'demo', web_search: true }
        : { provider: provider.value, model: provider.model, api: 'native', web_search: true, credential }
    if (!(await run('POST', '/collection/targets', body, 'add the target'))) return
    const started = await run<ApiData<'/collection/runs', 'post'>>('POST', '/collection/runs', {}, 'start the first run')
    if (started) onDone(started.data.id)
  }
  return (
    <Section title="4. Where to ask">
      {status}
      <form onSubmit={(e) => void submit(e)} aria-label="Where to ask">
        <fieldset className="inline-form" data-testid="target-choice">
          <legend>AI engine</legend>
          <label className="check">
            <input type="radio" name="engine" value="demo" checked={selected === 'demo'} onChange={() => setChoice('demo')} /> Demo (simulated answers, no key needed)
          </label>
          {ANSWER_PROVIDERS.map((p) => (
            <label key={p.value} className="check">
              <input type="radio" name="engine" value={p.value} checked={selected === p.value} onChange={() => setChoice(p.value)} /> {p.label}
            </label>
          ))}
        </fieldset>
        {selected !== 'demo' && !credentials.data?.some((c) => c.provider === selected) && (
          <label className="block">
            API key for {ANSWER_PROVIDERS.find((p) => p.value === selected)?.label} (stored encrypted; leave empty to use the server&apos;s own)
            <input name="api_key" type="password" autoComplete="off" spellCheck={false} />
          </label>
        )}
        <button type="submit">Start the first run</button>
      </form>
    </Section>
  )
}

function RunStep({ id, onDone }: { id: string; onDone: () => void }) {
  const runQuery = useApi<CollectionRun>(`/collection/runs/${id}`, undefined, { refetchInterval: (data) => (data && !ACTIVE.has(data.state) ? false : 1000) })
  const data = runQuery.data
  const done = data ? data.succeeded + data.failed + data.duplicates + (data.skipped ?? 0) : 0
  const finished = data ? !ACTIVE.has(data.state) : false
  return (
    <Section title="5. First run">
      <div role="status" aria-live="polite" data-testid="first-run" data-state={data?.state ?? 'queued'} data-done={done} data-planned={data?.planned ?? 0}>
        {data ? (
          <>
            <p>
              <Badge tone={data.state}>{data.state}</Badge> {formatCount(done)} of {formatCount(data.planned)} answers
              {data.failed > 0 && ` · ${formatCount(data.failed)} failed`}
            </p>
            <progress max={data.planned || 1} value={done} aria-label="First run progress" />
            {data.errors.map((e) => (
              <p key={`${e.target_id}-${e.code}`} className="error-text">
                {e.message}
              </p>
            ))}
          </>
        ) : (
          <p>Starting…</p>
        )}
      </div>
      <button type="button" onClick={onDone} disabled={!finished}>
        Next
      </button>
    </Section>
  )
}

function DiscoveryStep({ brand, category }: { brand: string; category: string }) {
  const { run, status } = useAction()
  const [job, setJob] = useState<string | null>(null)
  const suggested = useApi<{ competitors: Brand[]; pagination: Pagination }>('/brands', new URLSearchParams({ is_active: 'false', discovery_status: 'suggested', per_page: '20' }))
  // Discovery runs once, as the step opens, over the answers the first run stored.
  const started = useRef(false)
  useEffect(() => {
    if (started.current) return
    started.current = true
    void run('POST', '/brands/discover', {}, 'look for competitors').then((result) => result?.job && setJob(result.job.id))
  }, [run])
  // What the engines themselves searched while answering the first run: real phrasings of the category.
  const searched = useApi<{ search_queries: SearchQueryRow[] }>('/search-queries', new URLSearchParams({ per_page: '3' }))
  const names = suggested.data?.competitors ?? []
  const ideas = [...new Set([...(searched.data?.search_queries ?? []).map((q) => q.query), ...names.slice(0, 3).map((n) => `What are the alternatives to ${n.name}?`)])]
  return (
    <Section title="6. Competitors the engines name">
      {status}
      {job && <JobProgress key={job} id={job} label="Looking for competitors in the answers" />}
      {names.length > 0 ? (
        <ul className="edit-list" data-testid="start-suggestions">
          {names.map((b) => (
            <li key={b.id} className="inline-form">
              <strong>{b.name}</strong>
              <button
                type="button"
                onClick={() => void run('PATCH', `/brands/${b.id}`, { discovery_status: 'confirmed', is_active: true }, `track ${b.name}`, `${b.name} is tracked now.`)}
              >
                Track
              </button>
              <button
                type="button"
                className="danger"
                onClick={() => void run('PATCH', `/brands/${b.id}`, { discovery_status: 'rejected', is_active: false }, `dismiss ${b.name}`)}
              >
                Not a competitor
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">No other names found yet; more answers bring more suggestions (Settings → Brands).</p>
      )}
      {ideas.length > 0 && (
        <div className="inline-form" data-testid="discovered-prompt-ideas">
          <span className="muted">Prompt ideas from the engines' own searches and the names they gave:</span>
          {ideas.map((text) => (
            <button
              key={text}
              type="button"
              onClick={() => void run('POST', '/prompts', { text, tags: category ? [category.toLowerCase().slice(0, 50)] : [] }, 'add the prompt', `Added: ${text}`)}
            >
              + {text}
            </button>
          ))}
        </div>
      )}
      <p>
        <button type="button" className="primary" onClick={() => navigate('/')}>
          Open the overview{brand ? ` for ${brand}` : ''}
        </button>
      </p>
    </Section>
  )
}
