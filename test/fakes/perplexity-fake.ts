// Chat completions fakes: Perplexity (POST /chat/completions with search_results and citations,
// as in test/fixtures/providers/perplexity-sonar.json) and a plain OpenAI-compatible server
// (no citations unless scripted), for openai_compatible targets.
import { openAIErrorBody } from './openai-fake.js'
import { fixture, promptOf, startFake, type FakeOptions, type ProviderFake } from './http-fake.js'

export function startPerplexityFake(options: FakeOptions = {}): Promise<ProviderFake> {
  return startFake(
    {
      errorBody: openAIErrorBody,
      routes: [
        {
          method: 'POST',
          path: /\/chat\/completions$/,
          ok: (request) => {
            const sent = request.body as { model?: string; disable_search?: boolean }
            const body = fixture('perplexity-sonar.json')
            body.model = sent.model ?? body.model
            const message = (body.choices as Array<{ message: { content: string } }>)[0].message
            message.content = `Answer to: ${promptOf(request.body)}. ${message.content}`
            if (sent.disable_search) {
              delete body.search_results
              delete body.citations
              ;(body.usage as Record<string, unknown>).num_search_queries = 0
            }
            return body
          },
        },
      ],
    },
    options,
  )
}

export function startOpenAICompatibleFake(options: FakeOptions = {}): Promise<ProviderFake> {
  return startFake(
    {
      errorBody: openAIErrorBody,
      routes: [
        {
          method: 'POST',
          path: /\/chat\/completions$/,
          ok: (request) => ({
            id: 'chatcmpl-local-1',
            object: 'chat.completion',
            created: 1764050000,
            model: (request.body as { model?: string }).model ?? 'llama3.1:8b',
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `Answer to: ${promptOf(request.body)}. Acme Boards.` } }],
            usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
          }),
        },
      ],
    },
    options,
  )
}
