// Gemini API fake: POST /v1beta/models/{model}:generateContent. With the googleSearch tool the
// candidate carries groundingMetadata, as recorded in test/fixtures/providers/gemini-grounded.json
// (shapes: @google/genai, dist/genai.d.ts: GenerateContentResponse, GroundingMetadata,
// GroundingChunk, GroundingSupport; https://ai.google.dev/gemini-api/docs/google-search);
// its grounding redirect URLs stay on Google's host (the resolver asks no other); a test routes
// them to this fake with groundingRedirectFetch, and the fake redirects HEAD
// /grounding-api-redirect/{token} to the page (GROUNDING_PAGES), or 404 for an unknown token.
import { fixture, promptOf, startFake, type FakeOptions, type ProviderFake } from './http-fake.js'

export function googleErrorBody(status: number, message: string) {
  const statusName =
    status === 429 ? 'RESOURCE_EXHAUSTED' : status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'PERMISSION_DENIED' : status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT'
  return { error: { code: status, message, status: statusName } }
}

/** Where the fixture's grounding redirects lead. */
export const GROUNDING_PAGES: Record<string, string> = {
  AUZIYQHabc: 'https://www.example-reviews.com/pm-tools',
  AUZIYQHdef: 'https://acme.example/pricing',
}

/** A fetch that sends requests for Google's grounding-redirect host to `fakeUrl` instead (everything else unchanged). */
export function groundingRedirectFetch(fakeUrl: string): typeof fetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const routed = url.startsWith('https://vertexaisearch.cloud.google.com/') ? url.replace('https://vertexaisearch.cloud.google.com', fakeUrl) : url
    return fetch(routed === url ? input : routed, init)
  }
}

export function startGoogleFake(options: FakeOptions = {}): Promise<ProviderFake> {
  return startFake(
    {
      errorBody: googleErrorBody,
      sideRoutes: [
        {
          method: 'HEAD',
          path: /\/grounding-api-redirect\/([^/]+)$/,
          respond: (_request, match) => (GROUNDING_PAGES[match[1]] ? { status: 302, headers: { location: GROUNDING_PAGES[match[1]] } } : { status: 404 }),
        },
      ],
      routes: [
        {
          method: 'POST',
          path: /\/models\/([^/:]+):generateContent$/,
          ok: (request, match) => {
            const body = fixture('gemini-grounded.json')
            body.modelVersion = decodeURIComponent(match[1])
            const sent = request.body as { tools?: Array<Record<string, unknown>> }
            const candidate = (body.candidates as Array<Record<string, unknown>>)[0]
            const parts = (candidate.content as { parts: Array<{ text: string }> }).parts
            parts[0].text = `Answer to: ${promptOf(request.body)}. ${parts[0].text}`
            if (!(sent.tools ?? []).some((tool) => 'googleSearch' in tool)) delete candidate.groundingMetadata
            return body
          },
        },
      ],
    },
    options,
  )
}
