// OpenAI Responses API fake: POST /v1/responses. With the web_search tool in the request the
// answer carries web_search_call items and url_citation annotations, as recorded in
// test/fixtures/providers/openai-responses-web-search.json. Shapes: openai,
// resources/responses/responses.d.ts (Response, ResponseFunctionWebSearch,
// ResponseOutputText.URLCitation), and https://platform.openai.com/docs/api-reference/responses/object.
import { fixture, promptOf, startFake, type FakeOptions, type ProviderFake, type RecordedRequest } from './http-fake.js'

function hasWebSearch(request: RecordedRequest): boolean {
  const tools = (request.body as { tools?: Array<{ type?: string }> } | undefined)?.tools ?? []
  return tools.some((tool) => tool.type === 'web_search')
}

export function openAIErrorBody(status: number, message: string) {
  const type = status === 429 ? 'rate_limit_exceeded' : status === 401 ? 'invalid_api_key' : status >= 500 ? 'server_error' : 'invalid_request_error'
  return { error: { message, type, param: null, code: type } }
}

export function startOpenAIFake(options: FakeOptions = {}): Promise<ProviderFake> {
  return startFake(
    {
      errorBody: openAIErrorBody,
      routes: [
        {
          method: 'POST',
          path: /\/responses$/,
          ok: (request) => {
            const body = fixture('openai-responses-web-search.json')
            const model = (request.body as { model?: string }).model ?? 'gpt-5'
            body.model = `${model}-2025-08-07`
            const output = body.output as Array<Record<string, unknown>>
            const message = output.find((item) => item.type === 'message') as { content: Array<{ text: string; annotations: unknown[] }> }
            message.content[0].text = `Answer to: ${promptOf(request.body)}. ${message.content[0].text}`
            if (!hasWebSearch(request)) {
              body.output = [message]
              message.content[0].annotations = []
              body.tools = []
            }
            return body
          },
        },
      ],
    },
    options,
  )
}
