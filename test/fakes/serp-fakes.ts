// SERP API fakes. SerpApi: GET /search.json?engine=google answers with an ai_overview (or, for a
// query containing "lazy", only a page_token that GET /search.json?engine=google_ai_overview
// resolves; for "no overview", none). DataForSEO: POST /v3/serp/google/organic/live/advanced.
// Shapes as recorded in test/fixtures/providers/serpapi-*.json and dataforseo-ai-overview.json,
// from the providers' documentation (neither has an SDK installed): https://serpapi.com/ai-overview,
// https://serpapi.com/google-ai-overview-api, https://serpapi.com/api-status-and-error-codes;
// https://docs.dataforseo.com/v3/serp/google/organic/live/advanced/, https://docs.dataforseo.com/v3/appendix/errors/.
import { fixture, startFake, type FakeOptions, type ProviderFake } from './http-fake.js'

export function startSerpApiFake(options: FakeOptions = {}): Promise<ProviderFake> {
  return startFake(
    {
      errorBody: (_status, message) => ({ error: message }),
      routes: [
        {
          method: 'GET',
          path: /\/search(\.json)?$/,
          ok: (request) => {
            if (request.query.engine === 'google_ai_overview') return fixture('serpapi-ai-overview-follow-up.json')
            const q = request.query.q ?? ''
            if (/no overview/i.test(q)) return fixture('serpapi-no-overview.json')
            if (/lazy/i.test(q)) return fixture('serpapi-page-token.json')
            return fixture('serpapi-ai-overview.json')
          },
        },
      ],
    },
    options,
  )
}

export function startDataForSeoFake(options: FakeOptions = {}): Promise<ProviderFake> {
  return startFake(
    {
      errorBody: (status, message) => ({ version: '0.1', status_code: status * 100, status_message: message, tasks: [] }),
      routes: [{ method: 'POST', path: /\/v3\/serp\/google\/organic\/live\/advanced$/, ok: () => fixture('dataforseo-ai-overview.json') }],
    },
    options,
  )
}
