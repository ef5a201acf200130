// Perplexity's Agent API (POST /v1/responses) as its official SDK's types describe it
// (@perplexity-ai/perplexity_ai, dist/generated/api.d.ts: ResponsesResponseOutput; recorded shape
// in test/fixtures/providers/perplexity-agent-response.json), and a plain OpenAI-compatible
// chat completions server. Perplexity's fake keeps answering its retired Sonar chat completions
// (test/fixtures/providers/perplexity-sonar.json) because tests use it as any compatible server.
import { openAIErrorBody } from './openai-fake.js'
import { fixture, promptOf, startFake, type FakeOptions, type ProviderFake, type RecordedRequest } from './http-fake.js'

function hasWebSearch(request: RecordedRequest): boolean {
  const tools = (request.body as { tools?: Array<{ type?: string }> } | undefined)?.tools ?? []
  return tools.some((tool) => tool.type === 'web_search')
}

/** The Agent API's answer to `request`: the fixture, its text prefixed with the prompt; without the web_search tool no searches. */
export function perplexityAgentAnswer(request: RecordedRequest): Record<string, unknown> {
  const body = fixture('perplexity-agent-response.json')
  body.model = (request.body as { model?: string }).model ?? body.model
  const output = body.output as Array<Record<string, unknown>>
  const message = output.find((item) => item.type === 'message') as { content: Array<{ text: string; annotations?: unknown[] }> }
  message.content[0].text = `Answer to: ${promptOf(request.body)}. ${message.content[0].text}`
  if (!hasWebSearch(request)) {
    body.output = output.filter((item) => item.type !== 'search_results')
    delete message.content[0].annotations
    const usage = body.usage as { tool_calls_details?: unknown; cost: { tool_calls_cost?: number; total_cost: number } }
    delete usage.tool_calls_details
    usage.cost.total_cost -= usage.cost.tool_calls_cost ?? 0
    delete usage.cost.tool_calls_cost
  }
  return body
}

export function startPerplexityFake(options: FakeOptions = {}): Promise<ProviderFake> {
  return startFake(
    {
      errorBody: openAIErrorBody,
      routes: [
        { method: 'POST', path: /\/v1\/(responses|agent)$/, ok: perplexityAgentAnswer },
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
