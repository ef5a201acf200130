// The outcomes besides a stored answer (docs/collection.md): the engine refused, was cut short,
// its own search failed, or the account is out of credit. None of them is an answer, so none may
// reach the ingest path; each carries the provider's JSON as received, kept for audit.
//
// The adapters that speak chat completions, Perplexity's Agent API and the SERP APIs throw these;
// the kinds are the shared ProviderErrorKinds, and the JSON travels as the error's nonAnswer
// detail so the run keeps it in collection_non_answer like the native adapters' non-answers.
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
    const nonAnswer = { reason: detail, raw: options.raw ?? null, tokensIn: 0, tokensOut: 0, webSearchCalls: 0 }
    super(outcome satisfies ProviderErrorKind, `${label}${status}: ${detail} — ${ADVICE[outcome]}`, { status: options.status, cause: options.cause, nonAnswer })
    this.name = 'AnswerOutcomeError'
    this.outcome = outcome
    this.raw = options.raw
  }
}

export function answerOutcome(label: string, outcome: AnswerOutcomeKind, detail: string, options: { status?: number; raw?: unknown; cause?: unknown } = {}): AnswerOutcomeError {
  return new AnswerOutcomeError(label, outcome, detail, options)
}
