// The one form that adds a collection target (docs/collection.md), on the Collection page and in
// Settings → Collection targets: an answer target (provider, model, native / OpenAI-compatible /
// demo, web search) or an AI-overview target (a search API and a locale), each with samples, a
// schedule, a time zone and an optional stored key.
import { useState, type FormEvent } from 'react'
import type { ApiBody, CollectionTarget, Credential } from '../lib/api'
import { useAction } from './settings-kit'

type TargetBody = ApiBody<'/collection/targets', 'post'>

export const ANSWER_PROVIDERS = [
  { value: 'openai', label: 'OpenAI (ChatGPT)', model: 'gpt-4o-mini' },
  { value: 'anthropic', label: 'Anthropic (Claude)', model: 'claude-sonnet-4-5' },
  { value: 'google', label: 'Google (Gemini)', model: 'gemini-2.5-flash' },
  { value: 'perplexity', label: 'Perplexity', model: 'sonar' },
] as const

export const targetLabel = (t: Pick<CollectionTarget, 'kind' | 'serp' | 'locale' | 'provider' | 'model'>) =>
  t.kind === 'aio' ? `AI overview · ${t.serp ?? ''} · ${t.locale ?? ''}` : `${t.provider ?? ''} · ${t.model ?? ''}`

/** The choices of a target's key: the server's environment, then each stored key by name and last four characters. */
export function KeyOptions({ credentials }: { credentials: readonly Credential[] }) {
  return (
    <>
      <option value="">server environment</option>
      {credentials.map((c) => (
        <option key={c.name} value={c.name}>
          {c.name} (…{c.last_four})
        </option>
      ))}
    </>
  )
}

/** The stored keys a target may name: a key without manage:workspace cannot list them, so the form offers the server's environment only. */
function KeyChoice({ credentials }: { credentials: readonly Credential[] }) {
  return (
    <label>
      Key
      <select name="credential" defaultValue="">
        <KeyOptions credentials={credentials} />
      </select>
    </label>
  )
}

/** Adds a target; the outcome (added, or an explained error) shows above the form. */
export function TargetForm({ credentials }: { credentials: readonly Credential[] }) {
  const { run, status } = useAction()
  const [kind, setKind] = useState<'answer' | 'aio'>('answer')
  const [api, setApi] = useState<'native' | 'openai_compatible' | 'demo'>('native')
  const [provider, setProvider] = useState<(typeof ANSWER_PROVIDERS)[number]['value']>('openai')
  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const text = (name: string) => String(data.get(name) ?? '').trim()
    const common = {
      samples: Number(data.get('samples') ?? 1),
      schedule: text('schedule') || undefined,
      timezone: text('timezone') || undefined,
      credential: text('credential') || null,
      enabled: true,
    }
    const body: TargetBody =
      kind === 'aio'
        ? {
            kind: 'aio',
            serp: data.get('serp') === 'dataforseo' ? 'dataforseo' : 'serpapi',
            locale: text('locale') || undefined,
            api: api === 'demo' ? 'demo' : undefined,
            ...common,
          }
        : {
            kind: 'answer',
            provider,
            model: text('model'),
            api,
            base_url: api === 'openai_compatible' ? text('base_url') : undefined,
            web_search: data.get('web_search') === 'on',
            ...common,
          }
    if (await run('POST', '/collection/targets', body, 'add the target', 'Target added.')) form.reset()
  }
  return (
    <>
      {status}
      <form className="inline-form" onSubmit={(e) => void add(e)} aria-label="Add a target" data-testid="target-form">
        <fieldset className="inline-form">
          <legend>What to track</legend>
          <label className="check">
            <input type="radio" name="kind" value="answer" checked={kind === 'answer'} onChange={() => setKind('answer')} /> AI answers (ChatGPT, Claude, Gemini, Perplexity)
          </label>
          <label className="check">
            <input type="radio" name="kind" value="aio" checked={kind === 'aio'} onChange={() => setKind('aio')} /> Google AI overviews
          </label>
        </fieldset>
        {kind === 'answer' ? (
          <>
            <label>
              Provider
              <select name="provider" value={provider} onChange={(e) => setProvider(e.target.value as typeof provider)}>
                {ANSWER_PROVIDERS.map((p) => (
                  <option key={p.value} value={p.value}>
                    {p.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Model
              <input name="model" required key={provider} defaultValue={ANSWER_PROVIDERS.find((p) => p.value === provider)?.model} maxLength={200} />
            </label>
            <label>
              How to ask
              <select name="api" value={api} onChange={(e) => setApi(e.target.value as typeof api)}>
                <option value="native">the provider&apos;s own API</option>
                <option value="openai_compatible">an OpenAI-compatible API (base URL)</option>
                <option value="demo">demo (simulated answers, no key)</option>
              </select>
            </label>
            {api === 'openai_compatible' && (
              <label>
                Base URL
                <input name="base_url" type="url" required placeholder="https://openrouter.ai/api/v1" />
              </label>
            )}
            <label className="check">
              <input name="web_search" type="checkbox" defaultChecked /> Search the web as users see it
            </label>
          </>
        ) : (
          <>
            <label>
              Search API
              <select name="serp" defaultValue="serpapi">
                <option value="serpapi">SerpApi</option>
                <option value="dataforseo">DataForSEO</option>
              </select>
            </label>
            <label>
              Language-country
              <input name="locale" placeholder="en-US" pattern="[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*" />
            </label>
            <label className="check">
              <input type="checkbox" checked={api === 'demo'} onChange={(e) => setApi(e.target.checked ? 'demo' : 'native')} /> Demo (simulated, no key)
            </label>
          </>
        )}
        {api !== 'demo' && <KeyChoice credentials={credentials} />}
        <label>
          Samples
          <input name="samples" type="number" min={1} max={10} defaultValue={1} />
        </label>
        <label>
          Schedule (cron)
          <input name="schedule" placeholder="0 6 * * *" />
        </label>
        <label>
          Time zone
          <input name="timezone" placeholder="UTC" defaultValue={Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'} />
        </label>
        <button type="submit">Add target</button>
      </form>
    </>
  )
}
