// Gemini API fake: POST /v1beta/models/{model}:generateContent. With the googleSearch tool the
// candidate carries groundingMetadata, as recorded in test/fixtures/providers/gemini-grounded.json.
import { fixture, promptOf, startFake, type FakeOptions, type ProviderFake } from './http-fake.js'

export function googleErrorBody(status: number, message: string) {
  const statusName =
    status === 429 ? 'RESOURCE_EXHAUSTED' : status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'PERMISSION_DENIED' : status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT'
  return { error: { code: status, message, status: statusName } }
}

export function startGoogleFake(options: FakeOptions = {}): Promise<ProviderFake> {
  return startFake(
    {
      errorBody: googleErrorBody,
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
