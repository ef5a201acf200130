// Anthropic Messages API fake: POST /v1/messages. With the web_search_20250305 tool the answer
// has server_tool_use, web_search_tool_result and cited text blocks, as recorded in
// test/fixtures/providers/anthropic-web-search.json. Shapes: @anthropic-ai/sdk,
// resources/messages/messages.d.ts (Message, ServerToolUseBlock, WebSearchToolResultBlock,
// TextBlock.citations), and https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool.
import { fixture, promptOf, startFake, type FakeOptions, type ProviderFake } from './http-fake.js'

export function anthropicErrorBody(status: number, message: string) {
  const type =
    status === 429
      ? 'rate_limit_error'
      : status === 401
        ? 'authentication_error'
        : status === 403
          ? 'permission_error'
          : status === 529
            ? 'overloaded_error'
            : status >= 500
              ? 'api_error'
              : 'invalid_request_error'
  return { type: 'error', error: { type, message } }
}

export function startAnthropicFake(options: FakeOptions = {}): Promise<ProviderFake> {
  return startFake(
    {
      errorBody: anthropicErrorBody,
      routes: [
        {
          method: 'POST',
          path: /\/v1\/messages$/,
          ok: (request) => {
            const body = fixture('anthropic-web-search.json')
            const sent = request.body as { model?: string; tools?: Array<{ type?: string }> }
            body.model = sent.model ?? body.model
            const searched = (sent.tools ?? []).some((tool) => tool.type === 'web_search_20250305')
            const first = (body.content as Array<{ type: string; text?: string }>)[0]
            first.text = `Answer to: ${promptOf(request.body)}. ${first.text}`
            if (!searched) {
              body.content = [{ type: 'text', text: `Answer to: ${promptOf(request.body)}. Acme Boards is the top pick for small teams.` }]
              body.usage = { input_tokens: 20, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, server_tool_use: null }
            }
            return body
          },
        },
      ],
    },
    options,
  )
}
