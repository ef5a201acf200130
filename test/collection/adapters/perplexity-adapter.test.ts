// Perplexity's Agent API through its official SDK (@perplexity-ai/perplexity_ai) against a local
// fake of the wire format the SDK's types describe (dist/generated/api.d.ts:
// ResponsesResponseOutput, SearchResultsOutputItemOutput, ResponsesUsageOutput). Every way the
// engine does not answer becomes an outcome, never an answer.
import { afterEach, describe, expect, it } from 'vitest'
import { createAnswerAdapter } from '../../../src/collection/adapters/index.js'
import { parsePerplexityResponse } from '../../../src/collection/adapters/perplexity-adapter.js'
import { ProviderError, type AnswerTarget } from '../../../src/collection/adapters/types.js'
import { answerCostUsd } from '../../../src/collection/prices.js'
import { fixture, ok, type FakeStep, type ProviderFake } from '../../fakes/http-fake.js'
import { startPerplexityFake } from '../../fakes/perplexity-fake.js'

const fakes: ProviderFake[] = []
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()))
})

const target: AnswerTarget = { provider: 'perplexity', model: 'perplexity/sonar', api: 'native', web_search: true }
const ask = { target, prompt: 'best project management software for small teams', apiKey: 'pplx-test', timeoutMs: 5000 }

async function askWith(step: FakeStep) {
  const fake = await startPerplexityFake({ script: [step] })
  fakes.push(fake)
  const adapter = createAnswerAdapter(target, { baseUrlOverride: fake.url, env: {} })
  const outcome = await adapter.ask(ask).then(
    (answer) => ({ answer, error: undefined }),
    (error: unknown) => ({ answer: undefined, error }),
  )
  return { fake, ...outcome }
}

/** The fixture with `change` applied: a completed answer turned into one of the non-answers. */
function variant(change: (body: Record<string, unknown>) => void): Record<string, unknown> {
  const body = fixture('perplexity-agent-response.json')
  change(body)
  return body
}

const message = (body: Record<string, unknown>) =>
  (body.output as Array<Record<string, unknown>>).find((item) => item.type === 'message') as Record<string, unknown> & { content: Array<Record<string, unknown>> }

describe('Perplexity Agent API parsing (test/fixtures/providers/perplexity-agent-response.json)', () => {
  it('the text, what it cites then what the searches returned, the queries it ran, tokens and its own cost', () => {
    const parsed = parsePerplexityResponse(fixture('perplexity-agent-response.json'))
    expect(parsed.content).toMatch(/^Acme Boards is the most recommended tool/)
    expect(parsed.citations).toEqual([
      { url: 'https://www.example-reviews.com/pm-tools', title: 'The 10 best PM tools for small teams' },
      { url: 'https://acme.example/pricing', title: 'Acme Boards pricing' },
      { url: 'https://globex.example/blog/why-globex', title: 'Why teams move to Globex' },
    ])
    expect(parsed.searchQueries).toEqual(['best project management tool small teams 2026', 'acme boards vs globex tasks'])
    expect(parsed).toMatchObject({ modelServed: 'perplexity/sonar', tokensIn: 14, tokensOut: 96, webSearchCalls: 2, costUsd: 0.00511 })
  })

  it('without tool_calls_details, one search per search_results item; without usage.cost, no stated cost', () => {
    const parsed = parsePerplexityResponse(
      variant((body) => {
        delete (body.usage as Record<string, unknown>).tool_calls_details
        delete (body.usage as Record<string, unknown>).cost
      }),
    )
    expect(parsed.webSearchCalls).toBe(1)
    expect(parsed).not.toHaveProperty('costUsd')
  })

  it('the cost the answer states is the cost charged, over the price table', () => {
    const parsed = parsePerplexityResponse(variant((body) => (((body.usage as Record<string, unknown>).cost as Record<string, unknown>).total_cost = 0.042)))
    expect(answerCostUsd(target, parsed)).toBe(0.042)
    const { costUsd: _stated, ...unstated } = parsed
    expect(answerCostUsd(target, unstated)).not.toBe(0.042)
    expect(answerCostUsd(target, unstated)).toBeGreaterThan(0)
  })

  it('JSON that is not a response is malformed', () => {
    expect(() => parsePerplexityResponse({ model: 'x', status: 'completed' })).toThrow(/output/)
    expect(() => parsePerplexityResponse({ output: [], status: 'completed' })).toThrow(/model/)
  })
})

describe('Perplexity adapter through the SDK: non-answers are outcomes, kept with their JSON', () => {
  const cases: Array<{ name: string; body: Record<string, unknown>; outcome: string; retryable: boolean; flagsTarget: boolean }> = [
    {
      name: 'status "failed" with a search error',
      body: variant((body) => {
        body.status = 'failed'
        body.error = { code: 'search_error', type: 'tool_error', message: 'web search backend unavailable' }
      }),
      outcome: 'search_failed',
      retryable: true,
      flagsTarget: false,
    },
    {
      name: 'status "failed" for lack of credit',
      body: variant((body) => {
        body.status = 'failed'
        body.error = { code: 'insufficient_quota', message: 'Your credit balance is too low' }
      }),
      outcome: 'quota_exhausted',
      retryable: false,
      flagsTarget: true,
    },
    {
      name: 'OpenAI-style status "incomplete" at the output limit',
      body: variant((body) => {
        body.status = 'incomplete'
        body.incomplete_details = { reason: 'max_output_tokens' }
      }),
      outcome: 'incomplete',
      retryable: false,
      flagsTarget: false,
    },
    {
      name: 'status "incomplete" by the content filter',
      body: variant((body) => {
        body.status = 'incomplete'
        body.incomplete_details = { reason: 'content_filter' }
      }),
      outcome: 'refused',
      retryable: false,
      flagsTarget: false,
    },
    {
      name: 'a refusal content part',
      body: variant((body) => {
        message(body).content = [{ type: 'refusal', refusal: 'I can’t help with that.' }]
      }),
      outcome: 'refused',
      retryable: false,
      flagsTarget: false,
    },
    {
      name: 'a message still in progress',
      body: variant((body) => {
        message(body).status = 'in_progress'
      }),
      outcome: 'incomplete',
      retryable: false,
      flagsTarget: false,
    },
    {
      name: 'status "requires_action" (the agent wants a tool we did not offer)',
      body: variant((body) => {
        body.status = 'requires_action'
      }),
      outcome: 'incomplete',
      retryable: false,
      flagsTarget: false,
    },
    {
      name: 'a status Perplexity may add later',
      body: variant((body) => {
        body.status = 'paused'
      }),
      outcome: 'incomplete',
      retryable: false,
      flagsTarget: false,
    },
    {
      name: 'completed without any text',
      body: variant((body) => {
        message(body).content = []
      }),
      outcome: 'incomplete',
      retryable: false,
      flagsTarget: false,
    },
  ]

  it.each(cases)('$name → $outcome', async ({ body, outcome, retryable, flagsTarget }) => {
    const { fake, answer, error } = await askWith(ok(body))
    expect(answer).toBeUndefined()
    expect(error).toBeInstanceOf(ProviderError)
    const result = error as ProviderError
    expect(result.kind).toBe(outcome)
    expect(result.retryable).toBe(retryable)
    expect(result.flagsTarget).toBe(flagsTarget)
    expect(result.nonAnswer?.raw).toEqual(body)
    expect(fake.requests).toHaveLength(1)
  })

  it('HTTP 402 is quota_exhausted and flags the target', async () => {
    const { error } = await askWith({ type: 'error', status: 402, body: { error: { message: 'Insufficient credits', type: 'payment_required', code: 402 } } })
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ kind: 'quota_exhausted', status: 402, flagsTarget: true, retryable: false })
  })

  it('a completed answer is an answer: the searches it ran are kept beside it', async () => {
    const { answer } = await askWith(ok())
    expect(answer?.content).toContain('Answer to: best project management software for small teams')
    expect(answer).toMatchObject({ searchQueries: ['best project management tool small teams 2026', 'acme boards vs globex tasks'], costUsd: 0.00511, webSearchCalls: 2 })
  })
})
