// Chat completions (openai_compatible targets) through the OpenAI SDK against a local server:
// the output cap goes as max_completion_tokens, and only `finish_reason: "stop"` with text is an
// answer. Non-answer shapes from the SDK's type (openai, resources/chat/completions.d.ts:
// ChatCompletion.Choice.finish_reason `stop | length | tool_calls | content_filter |
// function_call`, ChatCompletionMessage.refusal); OpenRouter's is the same open enum
// (https://openrouter.ai/docs/client-sdks/python/components/finishreason).
import { afterEach, describe, expect, it } from 'vitest'
import { parseChatCompletion } from '../../../src/collection/adapters/chat-completions.js'
import { createAnswerAdapter } from '../../../src/collection/adapters/index.js'
import { ProviderError, type AnswerTarget } from '../../../src/collection/adapters/types.js'
import { ok, type ProviderFake } from '../../fakes/http-fake.js'
import { startOpenAICompatibleFake } from '../../fakes/perplexity-fake.js'

const fakes: ProviderFake[] = []
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()))
})

function completion(choice: Record<string, unknown>) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1764050000,
    model: 'o4-mini',
    choices: [{ index: 0, ...choice }],
    usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
  }
}

async function askCompatible(body?: unknown) {
  const fake = await startOpenAICompatibleFake({ script: [ok(body)] })
  fakes.push(fake)
  const target: AnswerTarget = { provider: 'openai', model: 'o4-mini', api: 'openai_compatible', base_url: `${fake.url}/v1`, web_search: false }
  const result = await createAnswerAdapter(target, { env: {} })
    .ask({ target, prompt: 'best crm', timeoutMs: 5000 })
    .then(
      (answer) => ({ answer, error: undefined }),
      (error: unknown) => ({ answer: undefined, error }),
    )
  return { fake, ...result }
}

describe('chat completions request', () => {
  it('caps output with max_completion_tokens, never the deprecated max_tokens', async () => {
    const { fake, answer } = await askCompatible()
    expect(answer?.content).toContain('Acme Boards')
    expect(fake.requests[0].body).toMatchObject({ model: 'o4-mini', max_completion_tokens: expect.any(Number) })
    expect(fake.requests[0].body).not.toHaveProperty('max_tokens')
  })
})

describe('chat completions non-answers are outcomes, never answers', () => {
  const cases = [
    { name: 'finish_reason "length"', choice: { finish_reason: 'length', message: { role: 'assistant', content: 'Acme Boards is' } }, outcome: 'incomplete' },
    { name: 'finish_reason "content_filter"', choice: { finish_reason: 'content_filter', message: { role: 'assistant', content: '' } }, outcome: 'refused' },
    { name: 'a refusal on the message', choice: { finish_reason: 'stop', message: { role: 'assistant', content: null, refusal: 'I can’t help with that.' } }, outcome: 'refused' },
    {
      name: 'finish_reason "tool_calls" (a tool we never offered)',
      choice: {
        finish_reason: 'tool_calls',
        message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{}' } }] },
      },
      outcome: 'incomplete',
    },
    {
      name: 'finish_reason "function_call"',
      choice: { finish_reason: 'function_call', message: { role: 'assistant', content: null, function_call: { name: 'search', arguments: '{}' } } },
      outcome: 'incomplete',
    },
    { name: 'no finish_reason', choice: { message: { role: 'assistant', content: 'Acme Boards.' } }, outcome: 'incomplete' },
    { name: 'an unknown finish_reason', choice: { finish_reason: 'eos_maybe', message: { role: 'assistant', content: 'Acme Boards.' } }, outcome: 'incomplete' },
    { name: '"stop" with no text', choice: { finish_reason: 'stop', message: { role: 'assistant', content: '' } }, outcome: 'incomplete' },
  ]

  it.each(cases)('$name → $outcome, with the JSON kept', async ({ choice, outcome }) => {
    const body = completion(choice)
    const { answer, error } = await askCompatible(body)
    expect(answer).toBeUndefined()
    // Through the openai_compatible adapter the error is rebuilt with fixed wording (the server's
    // text never reaches messages), keeping the outcome's kind and its JSON for the audit table.
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ kind: outcome, retryable: false, flagsTarget: false })
    expect((error as ProviderError).nonAnswer?.raw).toEqual(body)
  })

  it('"stop" with text is an answer', () => {
    expect(parseChatCompletion(completion({ finish_reason: 'stop', message: { role: 'assistant', content: 'Acme Boards.' } })).content).toBe('Acme Boards.')
  })
})
