// The outcomes besides a stored answer (docs/collection.md): the engine refused, was cut short,
// its own search failed, or the account is out of credit. None of them is an answer, so none may
// reach the ingest path; each carries the provider's JSON as received, kept for audit.
//
// Local to the adapters of this branch (Perplexity, chat completions, SerpApi, DataForSEO) until
// the shared ProviderErrorKind in types.ts gains the same four words; then `kind` needs no cast
// and this class can shrink to the `raw` field.
import { ProviderError, type ProviderErrorKind } from './types.js'

export type AnswerOutcomeKind = 'refused' | 'incomplete' | 'search_failed' | 'quota_exhausted'

const ADVICE: Record<AnswerOutcomeKind, string> = {
  refused: 'the engine declined to answer this prompt; it is counted on the run, not stored as an answer',
  incomplete: 'the engine stopped before finishing its answer; it is counted on the run, not stored as an answer',
  search_failed: "the engine's own web search failed; the run retries",
  quota_exhausted: "the provider account is out of credit or today's quota; top it up, then re-enable the target",
}

export class AnswerOutcomeError extends ProviderError {
  readonly outcome: AnswerOutcomeKind
  /** the provider's JSON as received (absent when the outcome came as an HTTP error) */
  readonly raw?: unknown

  constructor(label: string, outcome: AnswerOutcomeKind, detail: string, options: { status?: number; raw?: unknown; cause?: unknown } = {}) {
    const status = options.status === undefined ? '' : ` (HTTP ${options.status})`
    // The cast is the local stand-in for the shared union named above.
    super(outcome as unknown as ProviderErrorKind, `${label}${status}: ${detail} — ${ADVICE[outcome]}`, { status: options.status, cause: options.cause })
    this.name = 'AnswerOutcomeError'
    this.outcome = outcome
    this.raw = options.raw
  }

  /** only a failed search is transient; a refusal or a cut answer would repeat, and money does not come back by retrying */
  override get retryable(): boolean {
    return this.outcome === 'search_failed'
  }

  /** out of credit needs the operator, like a refused key */
  override get flagsTarget(): boolean {
    return this.outcome === 'quota_exhausted'
  }
}

export function answerOutcome(label: string, outcome: AnswerOutcomeKind, detail: string, options: { status?: number; raw?: unknown; cause?: unknown } = {}): AnswerOutcomeError {
  return new AnswerOutcomeError(label, outcome, detail, options)
}
