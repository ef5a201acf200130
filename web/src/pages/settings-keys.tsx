// The workspace's API keys (docs/agents-and-notifications.md, docs/security.md): create one
// with scopes no wider than the signed-in key's (the API refuses wider ones too), see its
// token once with a copy button, revoke. Keys are listed by prefix only.
import { useState, type FormEvent } from 'react'
import type { ApiBody, ApiData } from '../lib/api'
import { formatDateTime } from '../lib/format'
import { useApi, useSession } from '../lib/session'
import { Badge, QueryView, Section } from '../components/ui'
import { SecretOnce, useAction } from '../components/settings-kit'

type ApiKey = ApiData<'/keys'>['keys'][number]
type Scope = ApiBody<'/keys', 'post'>['scopes'][number]

export const SCOPE_LABELS: Record<Scope, string> = {
  'read:analytics': 'Read analytics (dashboard, reports)',
  'export:data': 'Export data (downloads)',
  'write:data': 'Write data (send answers, start runs)',
  'manage:workspace': 'Manage the workspace (brands, keys, webhooks)',
}
const ALL_SCOPES = Object.keys(SCOPE_LABELS) as Scope[]

/** The signed-in key among the listed ones: lists show `bvk_` + 6 characters of each key. */
export function signedInKey(keys: ApiKey[], token: string): ApiKey | undefined {
  return keys.find((k) => !k.revoked_at && token.startsWith(k.prefix))
}

export default function KeySettings() {
  const { key: token } = useSession()
  const list = useApi<{ keys: ApiKey[] }>('/keys')
  const { run, status } = useAction()
  const [created, setCreated] = useState<string | null>(null)
  // The earliest expiry offered: tomorrow, read once (a render must not read the clock).
  const [tomorrow] = useState(() => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10))
  const mine = list.data ? signedInKey(list.data.keys, token) : undefined
  // Only the signed-in key's own scopes can be given (the API answers 403 for any other).
  const allowed = mine ? ALL_SCOPES.filter((s) => mine.scopes.includes(s)) : []
  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const scopes = data.getAll('scopes').filter((s): s is Scope => allowed.includes(s as Scope))
    const expires = String(data.get('expires') ?? '')
    const body: ApiBody<'/keys', 'post'> = { name: String(data.get('name') ?? '').trim(), scopes }
    if (expires) body.expires_at = new Date(`${expires}T23:59:59`).toISOString()
    const result = await run<{ key: string }>('POST', '/keys', body, 'create the key', 'Key created.')
    if (result) {
      setCreated(result.data.key)
      form.reset()
    }
  }
  return (
    <>
      {status}
      {created && <SecretOnce label="The new API key." value={created} onDone={() => setCreated(null)} testId="new-key" />}
      <QueryView query={list}>
        {(data) => (
          <Section title="API keys">
            <ul className="edit-list" data-testid="key-list">
              {data.keys.map((k) => (
                <li key={k.id} data-key-id={k.id}>
                  <div className="inline-form">
                    <strong>{k.name}</strong>
                    <code>{k.prefix}…</code>
                    {k.id === mine?.id && <Badge tone="owned">signed in with this key</Badge>}
                    {k.revoked_at ? <Badge tone="failed">revoked {formatDateTime(k.revoked_at)}</Badge> : null}
                    <span className="muted">
                      {k.scopes.join(', ')} · created {formatDateTime(k.created_at)} · last used {k.last_used_at ? formatDateTime(k.last_used_at) : 'never'}
                      {k.expires_at ? ` · expires ${formatDateTime(k.expires_at)}` : ''}
                    </span>
                    {!k.revoked_at && (
                      <button
                        type="button"
                        className="danger"
                        onClick={() =>
                          window.confirm(
                            k.id === mine?.id
                              ? 'Revoke the key you are signed in with? You will be signed out at once.'
                              : `Revoke "${k.name}"? Anything using it stops working at once.`,
                          ) && void run('DELETE', `/keys/${k.id}`, undefined, 'revoke the key', `Key "${k.name}" revoked.`)
                        }
                      >
                        Revoke
                      </button>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          </Section>
        )}
      </QueryView>
      {list.data && (
        <Section title="Create a key">
          <form className="inline-form" onSubmit={(e) => void create(e)} aria-label="Create an API key">
            <label className="grow">
              What is it for?
              <input name="name" required maxLength={100} placeholder="Looker export" />
            </label>
            <fieldset className="inline-form" data-testid="scope-picker">
              <legend>Permissions</legend>
              {ALL_SCOPES.map((s) => (
                <label key={s} className="check" title={allowed.includes(s) ? undefined : 'Your own key does not have this permission, so it cannot give it'}>
                  <input type="checkbox" name="scopes" value={s} disabled={!allowed.includes(s)} defaultChecked={s === 'read:analytics' && allowed.includes(s)} /> {SCOPE_LABELS[s]}
                </label>
              ))}
            </fieldset>
            <label>
              Expires (optional)
              <input name="expires" type="date" min={tomorrow} />
            </label>
            <button type="submit">Create key</button>
          </form>
          {!mine && <p className="hint">Beacon could not tell which key you signed in with, so no permission can be given from here.</p>}
        </Section>
      )}
    </>
  )
}
