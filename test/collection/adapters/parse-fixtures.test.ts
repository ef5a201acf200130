// Each adapter's parser on recorded-shape answers (test/fixtures/providers): what users would
// see as the answer and its sources, in order of first citation, one per URL.
import { describe, expect, it } from 'vitest'
import { parseAnthropicMessage } from '../../../src/collection/adapters/anthropic-adapter.js'
import { parseChatCompletion } from '../../../src/collection/adapters/chat-completions.js'
import { parseGeminiResponse, resolveGroundingRedirects } from '../../../src/collection/adapters/google-adapter.js'
import { parseOpenAIResponse } from '../../../src/collection/adapters/openai-adapter.js'
import { ProviderError } from '../../../src/collection/adapters/types.js'
import { fixture } from '../../fakes/http-fake.js'

const kindOf = (fn: () => unknown) => {
  try {
    fn()
  } catch (error) {
    return error instanceof ProviderError ? error.kind : 'not a ProviderError'
  }
  return 'no error'
}

describe('OpenAI Responses', () => {
  it('reads output_text, url_citation annotations (deduplicated), web_search_call items and usage', () => {
    const parsed = parseOpenAIResponse(fixture('openai-responses-web-search.json'))
    expect(parsed.content).toMatch(/^For small teams, Acme Boards/)
    expect(parsed.citations).toEqual([
      { url: 'https://www.example-reviews.com/pm-tools', title: 'The 10 best PM tools for small teams' },
      { url: 'https://acme.example/pricing', title: 'Acme Boards pricing' },
    ])
    // Only `search` actions are billed: the fixture's `open_page` action is not a search.
    expect(parsed).toMatchObject({ modelServed: 'gpt-5-2025-08-07', tokensIn: 12840, tokensOut: 612, webSearchCalls: 1 })
    expect(parsed.searchQueries).toEqual(['best project management software for small teams 2026'])
  })

  it('joins several messages, ignores reasoning items, and a failed response is a server error', () => {
    const raw = fixture('openai-responses-web-search.json')
    const output = raw.output as unknown[]
    output.unshift({ id: 'rs_1', type: 'reasoning', summary: [] })
    output.push({ id: 'msg_2', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Second part.', annotations: [] }] })
    expect(parseOpenAIResponse(raw).content).toMatch(/ease of use\.\n\nSecond part\.$/)
    expect(kindOf(() => parseOpenAIResponse({ ...raw, status: 'failed', error: { code: 'server_error', message: 'boom' } }))).toBe('server')
  })

  it('an answer without output or model is malformed', () => {
    expect(kindOf(() => parseOpenAIResponse({ id: 'x' }))).toBe('malformed')
    expect(kindOf(() => parseOpenAIResponse({ output: [] }))).toBe('malformed')
    expect(kindOf(() => parseOpenAIResponse('<html>'))).toBe('malformed')
  })
})

describe('Anthropic Messages', () => {
  it('concatenates text blocks; cited sources first, then the other search results; searches from usage', () => {
    const parsed = parseAnthropicMessage(fixture('anthropic-web-search.json'))
    expect(parsed.content).toBe(
      "I'll search for current recommendations.Based on the search results, Acme Boards is the top pick for small teams, while Globex Tasks suits larger ones.",
    )
    expect(parsed.citations.map((c) => c.url)).toEqual(['https://acme.example/pricing', 'https://www.example-reviews.com/pm-tools', 'https://globex.example/blog/why-globex'])
    expect(parsed.citations[2].title).toBe('Why teams pick Globex Tasks')
    expect(parsed).toMatchObject({ modelServed: 'claude-sonnet-4-5-20250929', tokensIn: 10682, tokensOut: 510, webSearchCalls: 1 })
  })

  it('a search that failed (error object instead of results) adds no sources', () => {
    const raw = fixture('anthropic-web-search.json')
    raw.content = [
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } },
      { type: 'text', text: 'No sources today.' },
    ]
    const parsed = parseAnthropicMessage(raw)
    expect(parsed.citations).toEqual([])
    expect(parsed.content).toBe('No sources today.')
  })

  it('an answer without content is malformed', () => {
    expect(kindOf(() => parseAnthropicMessage({ type: 'message', model: 'claude' }))).toBe('malformed')
  })
})

describe('Gemini generateContent', () => {
  it('reads parts, grounding chunks (deduplicated), queries run and usage including thoughts and tool prompts', () => {
    const parsed = parseGeminiResponse(fixture('gemini-grounded.json'), 'gemini-2.5-flash')
    expect(parsed.content).toBe('Small teams mostly choose Acme Boards, with Globex Tasks as the runner-up.')
    expect(parsed.citations).toEqual([
      { url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQHabc', title: 'example-reviews.com' },
      { url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQHdef', title: 'acme.example' },
    ])
    expect(parsed).toMatchObject({ modelServed: 'gemini-2.5-flash', tokensIn: 3212, tokensOut: 600, webSearchCalls: 2 })
    expect(parsed.searchQueries).toEqual(['best project management software small teams', 'acme boards vs globex tasks'])
  })

  it('skips thought parts; a safety-blocked prompt is refused; no candidates at all is malformed', () => {
    const raw = fixture('gemini-grounded.json')
    const parts = ((raw.candidates as Array<{ content: { parts: unknown[] } }>)[0].content.parts = [{ text: 'thinking…', thought: true }, { text: 'Answer.' }])
    expect(parts).toHaveLength(2)
    expect(parseGeminiResponse(raw, 'gemini-2.5-pro').content).toBe('Answer.')
    expect(kindOf(() => parseGeminiResponse({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 5 } }, 'gemini-2.5-pro'))).toBe('refused')
    expect(kindOf(() => parseGeminiResponse({ usageMetadata: {} }, 'gemini-2.5-pro'))).toBe('malformed')
  })
})

describe('chat completions (Perplexity, OpenAI-compatible servers)', () => {
  it('Perplexity: search_results with titles, searches from usage.num_search_queries', () => {
    const parsed = parseChatCompletion(fixture('perplexity-sonar.json'), { searchedWhenCited: true })
    expect(parsed.citations).toEqual([
      { url: 'https://www.example-reviews.com/pm-tools', title: 'The 10 best PM tools for small teams' },
      { url: 'https://acme.example/pricing', title: 'Acme Boards pricing' },
      { url: 'https://globex.example/blog/why-globex', title: 'Why teams pick Globex Tasks' },
    ])
    expect(parsed).toMatchObject({ modelServed: 'sonar-pro', tokensIn: 14, tokensOut: 96, webSearchCalls: 2 })
  })

  it('Perplexity before search_results: the citations URL list, and one search when it cited anything', () => {
    const parsed = parseChatCompletion(fixture('perplexity-citations-only.json'), { searchedWhenCited: true })
    expect(parsed.citations).toEqual([
      { url: 'https://acme.example/pricing', title: null },
      { url: 'https://www.example-reviews.com/pm-tools', title: null },
    ])
    expect(parsed.webSearchCalls).toBe(1)
  })

  it('OpenRouter/OpenAI search models: url_citation annotations on the message', () => {
    const parsed = parseChatCompletion(fixture('openrouter-annotations.json'))
    expect(parsed.citations).toEqual([{ url: 'https://www.example-reviews.com/pm-tools', title: 'The 10 best PM tools for small teams' }])
    expect(parsed).toMatchObject({ modelServed: 'openai/gpt-4o-search-preview', webSearchCalls: 0 })
  })

  it('content given as parts is joined; no choices is malformed', () => {
    const parsed = parseChatCompletion({
      model: 'm',
      choices: [
        {
          finish_reason: 'stop',
          message: {
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
        },
      ],
    })
    expect(parsed.content).toBe('ab')
    expect(kindOf(() => parseChatCompletion({ model: 'm', choices: [] }))).toBe('malformed')
    expect(kindOf(() => parseChatCompletion({ choices: [{ message: { content: 'x' } }] }))).toBe('malformed')
  })
})

describe('Gemini grounding redirects', () => {
  const redirect = (token: string) => `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${token}`
  const stubFetch =
    (pages: Record<string, string>): typeof fetch =>
    async (input) => {
      const token = String(input).split('/').pop() ?? ''
      if (token === 'broken') throw new TypeError('fetch failed')
      return pages[token] ? new Response(null, { status: 302, headers: { location: pages[token] } }) : new Response(null, { status: 404 })
    }

  it('become the pages they lead to, deduplicated; unresolvable ones stay; other URLs are not asked', async () => {
    const asked: string[] = []
    const pages = { a: 'https://acme.example/', b: 'https://acme.example/', c: 'https://globex.example/' }
    const fetchSpy: typeof fetch = async (input, init) => {
      asked.push(String(input))
      return stubFetch(pages)(input, init)
    }
    const resolved = await resolveGroundingRedirects(
      [
        { url: redirect('a'), title: 'acme.example' },
        { url: redirect('b'), title: 'acme.example' },
        { url: 'https://direct.example/', title: null },
        { url: redirect('missing'), title: 'missing.example' },
        { url: redirect('broken'), title: 'broken.example' },
        { url: redirect('c'), title: 'globex.example' },
      ],
      fetchSpy,
      new AbortController().signal,
    )
    expect(resolved.map((c) => c.url)).toEqual(['https://acme.example/', 'https://direct.example/', redirect('missing'), redirect('broken'), 'https://globex.example/'])
    expect(asked).not.toContain('https://direct.example/')
  })

  it("only Google's redirect host is asked: the same path elsewhere (another host, http, a port) is kept as it is", async () => {
    const asked: string[] = []
    const fetchSpy: typeof fetch = async (input) => {
      asked.push(String(input))
      return new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } })
    }
    const elsewhere = [
      'https://evil.example/grounding-api-redirect/a',
      'http://vertexaisearch.cloud.google.com/grounding-api-redirect/a',
      'https://vertexaisearch.cloud.google.com:8443/grounding-api-redirect/a',
      'https://vertexaisearch.cloud.google.com.evil.example/grounding-api-redirect/a',
    ]
    const resolved = await resolveGroundingRedirects(
      elsewhere.map((url) => ({ url, title: null })),
      fetchSpy,
      new AbortController().signal,
    )
    expect(asked).toEqual([])
    expect(resolved.map((c) => c.url)).toEqual(elsewhere)
  })
})
