// Pieces every settings page shares: running a write with its outcome in plain words, and
// showing a secret the API returns only once (webhook secret, API key) with a copy button.
import { useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { apiRequest, type Envelope } from '../lib/api'
import { explainError, type ExplainedError } from '../lib/api-errors'
import { useSession } from '../lib/session'

export function ExplainedErrorBox({ error }: { error: ExplainedError }) {
  return (
    <div className="state error" role="alert" data-testid="action-error">
      <strong>{error.summary}</strong>
      {error.detail && (
        <details>
          <summary>Details for whoever runs Beacon</summary>
          <code>{error.detail}</code>
        </details>
      )}
    </div>
  )
}

/** Runs writes against the API; keeps the last outcome (a saved message or an explained error). */
export function useAction() {
  const { key } = useSession()
  const client = useQueryClient()
  const [error, setError] = useState<ExplainedError | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const run = async <T,>(method: string, path: string, body: unknown, doing: string, done?: string): Promise<Envelope<T> | null> => {
    setError(null)
    setSaved(null)
    try {
      const result = await apiRequest<T>(key, path, { method, body })
      if (done) setSaved(done)
      await client.invalidateQueries()
      return result
    } catch (e) {
      setError(explainError(e, doing))
      return null
    }
  }
  const status = (
    <div aria-live="polite">
      {saved && (
        <p className="saved" data-testid="action-saved">
          {saved}
        </p>
      )}
      {error && <ExplainedErrorBox error={error} />}
    </div>
  )
  return { run, status, clear: () => (setError(null), setSaved(null)) }
}

/** A secret shown this once: readable, copyable, and gone when dismissed. */
export function SecretOnce({ label, value, onDone, testId }: { label: string; value: string; onDone: () => void; testId?: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied('yes')
    } catch {
      setCopied('failed')
    }
  }
  return (
    <div className="secret-once" role="status" data-testid={testId}>
      <p>
        <strong>{label}</strong> Copy it now and keep it somewhere safe: Beacon stores only a fingerprint and <em>will not show it again</em>.
      </p>
      <div className="inline-form">
        <input readOnly value={value} aria-label={label} onFocus={(e) => e.currentTarget.select()} data-testid="secret-value" spellCheck={false} />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
      {copied === 'yes' && <p className="saved">Copied to the clipboard.</p>}
      {copied === 'failed' && <p className="hint">This browser did not allow copying: select the text and copy it by hand.</p>}
    </div>
  )
}
