// Shared by the collection tests: a fake adapter whose behaviour each test scripts, and
// helpers to add targets and follow runs through the API.
import { expect } from 'vitest'
import type { TestContext } from '../helpers/test-app.js'
import { post } from '../helpers/requests.js'
import type { AnswerAdapter, AskRequest, ProviderAnswer } from '../../src/collection/adapters/types.js'

export interface FakeCall {
  model: string
  prompt: string
  at: number
  apiKey?: string
}

/** Answers naming the brands given, citing their sites; `behave` may throw a ProviderError or delay. */
export function fakeAdapter(calls: FakeCall[], behave?: (request: AskRequest, call: number) => Promise<void> | void, brands: string[] = ['Acme', 'Globex']): AnswerAdapter {
  return {
    kind: 'openai',
    async ask(request): Promise<ProviderAnswer> {
      calls.push({ model: request.target.model, prompt: request.prompt, at: Date.now(), apiKey: request.apiKey })
      await behave?.(request, calls.length)
      const content = `For "${request.prompt}": ${brands.join(' is good, ')} is also fine. See https://${brands[0].toLowerCase()}.com/guide`
      return {
        content,
        citations: [{ url: `https://reviewhub.com/${brands[1]?.toLowerCase() ?? 'x'}`, title: 'A review' }],
        modelServed: `${request.target.model}-2026-01-01`,
        tokensIn: 10,
        tokensOut: 50,
        webSearchCalls: request.target.web_search ? 1 : 0,
        latencyMs: 5,
        raw: { id: 'resp_fake', output_text: content },
      }
    },
  }
}

export async function addTarget(ctx: TestContext, key: string, body: Record<string, unknown>): Promise<string> {
  const response = await post(ctx, '/api/v1/collection/targets', key, body)
  expect(response.statusCode, response.body).toBe(201)
  return response.json().data.id
}

export interface RunBody {
  id: string
  state: string
  planned: number
  succeeded: number
  failed: number
  duplicates: number
  skipped: number
  refused: number
  incomplete: number
  search_failed: number
  quota_exhausted: number
  tokens_in: number
  cost_usd: number
  errors: { target_id: string; code: string; message: string; count: number }[]
}

export async function startRun(ctx: TestContext, key: string, body: Record<string, unknown> = {}): Promise<RunBody> {
  const response = await post(ctx, '/api/v1/collection/runs', key, body)
  expect(response.statusCode, response.body).toBe(202)
  return response.json().data
}

export async function getRunBody(ctx: TestContext, key: string, id: string): Promise<RunBody> {
  const response = await ctx.get(`/api/v1/collection/runs/${id}`, key)
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data
}

export async function waitForRun(ctx: TestContext, key: string, id: string, timeoutMs = 60_000): Promise<RunBody> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const run = await getRunBody(ctx, key, id)
    if (
      ['succeeded', 'failed'].includes(run.state) ||
      (run.state === 'cancelled' &&
        run.planned === run.succeeded + run.failed + run.duplicates + run.skipped + run.refused + run.incomplete + run.search_failed + run.quota_exhausted)
    )
      return run
    if (Date.now() > deadline) throw new Error(`run ${id} still ${run.state} after ${timeoutMs} ms: ${JSON.stringify(run)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
