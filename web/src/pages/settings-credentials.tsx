// Provider credentials (docs/collection.md): write-only. The API stores a key encrypted and
// only ever lists its name, provider and last four characters; a key can be replaced (same
// name, new value) or deleted, never read back.
import { useState, type FormEvent } from 'react'
import type { ApiBody, Credential } from '../lib/api'
import { formatDateTime } from '../lib/format'
import { useApi } from '../lib/session'
import { QueryView, Section } from '../components/ui'
import { useAction } from '../components/settings-kit'

type CredentialProvider = ApiBody<'/collection/credentials/{name}', 'put'>['provider']

export const CREDENTIAL_PROVIDERS: { value: CredentialProvider; label: string }[] = [
  { value: 'openai', label: 'OpenAI' },
  { value: 'anthropic', label: 'Anthropic' },
  { value: 'google', label: 'Google Gemini' },
  { value: 'perplexity', label: 'Perplexity' },
  { value: 'openai_compatible', label: 'OpenAI-compatible (OpenRouter, Azure, local…)' },
  { value: 'serpapi', label: 'SerpApi (AI overviews)' },
  { value: 'dataforseo', label: 'DataForSEO (AI overviews)' },
]

const providerLabel = (value: string) => CREDENTIAL_PROVIDERS.find((p) => p.value === value)?.label ?? value

/** Names the API accepts: letters, digits, dot, underscore, dash. */
export const credentialName = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)

export default function CredentialSettings() {
  const list = useApi<Credential[]>('/collection/credentials')
  const { run, status } = useAction()
  const [provider, setProvider] = useState<CredentialProvider>('openai')
  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const name = credentialName(String(data.get('name') ?? '')) || provider
    const ok = await run(
      'PUT',
      `/collection/credentials/${encodeURIComponent(name)}`,
      { provider, api_key: String(data.get('api_key') ?? '').trim() },
      'store the key',
      `Key "${name}" stored.`,
    )
    if (ok) form.reset()
  }
  return (
    <>
      {status}
      <Section title="Provider keys">
        <p className="hint">
          Keys Beacon uses to ask the AI providers. They are stored encrypted and never shown again: only the name and the last four characters are listed. Without a stored key a
          provider uses the server&apos;s environment (OPENAI_API_KEY, …).
        </p>
        <QueryView query={list}>
          {(credentials) =>
            credentials.length === 0 ? (
              <p className="state empty">No keys stored yet.</p>
            ) : (
              <ul className="edit-list" data-testid="credential-list">
                {credentials.map((c) => (
                  <CredentialRow key={c.name} credential={c} run={run} />
                ))}
              </ul>
            )
          }
        </QueryView>
      </Section>
      <Section title="Add a key">
        <form className="inline-form" onSubmit={(e) => void add(e)} aria-label="Add a provider key">
          <label>
            Provider
            <select name="provider" value={provider} onChange={(e) => setProvider(e.target.value as CredentialProvider)}>
              {CREDENTIAL_PROVIDERS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Name
            <input name="name" placeholder={provider} maxLength={64} title="Letters, digits, dots, dashes and underscores; anything else becomes a dash" />
          </label>
          <label className="grow">
            Key
            <input name="api_key" type="password" required autoComplete="off" spellCheck={false} placeholder="sk-…" />
          </label>
          <button type="submit">Store key</button>
        </form>
      </Section>
    </>
  )
}

function CredentialRow({ credential, run }: { credential: Credential; run: ReturnType<typeof useAction>['run'] }) {
  const [replacing, setReplacing] = useState(false)
  const path = `/collection/credentials/${encodeURIComponent(credential.name)}`
  const replace = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const value = String(new FormData(event.currentTarget).get('api_key') ?? '').trim()
    if (await run('PUT', path, { provider: credential.provider, api_key: value }, 'replace the key', `Key "${credential.name}" replaced.`)) setReplacing(false)
  }
  return (
    <li data-credential={credential.name}>
      <div className="inline-form">
        <strong>{credential.name}</strong>
        <span>{providerLabel(credential.provider)}</span>
        <code data-testid="credential-last-four">…{credential.last_four}</code>
        <span className="muted">updated {formatDateTime(credential.updated_at)}</span>
        <button type="button" onClick={() => setReplacing(!replacing)} aria-expanded={replacing}>
          Replace
        </button>
        <button
          type="button"
          className="danger"
          onClick={() =>
            window.confirm(`Delete the key "${credential.name}"? Targets using it will stop until they get another key.`) &&
            void run('DELETE', path, undefined, 'delete the key', `Key "${credential.name}" deleted.`)
          }
        >
          Delete
        </button>
      </div>
      {replacing && (
        <form className="inline-form" onSubmit={(e) => void replace(e)} aria-label={`Replace the key ${credential.name}`}>
          <label className="grow">
            New key
            <input name="api_key" type="password" required autoComplete="off" spellCheck={false} />
          </label>
          <button type="submit">Save new key</button>
        </form>
      )}
    </li>
  )
}
