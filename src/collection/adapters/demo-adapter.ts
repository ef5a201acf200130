// The `demo` provider (docs/collection.md): answers from the demo composer, no network, no key, so
// a newcomer can watch a run without a provider account. A demo target is an ordinary
// answer target with `api: "demo"` (provider still one of the four: the answer is written
// in that provider's style and stored under it). Answers vary per call but are plausible
// for the demo workspace's brands; latency is simulated (BEACON_DEMO_LATENCY_MS).
import { randomInt } from 'node:crypto'
import { BRAND_PROFILES, PROMPT_DEFS, SOURCE_DEFS, type BrandProfile, type PromptDef } from '../../demo/catalog.js'
import { brandUrl, composeAnswer, composeOverview, type Citation } from '../../demo/compose.js'
import { Rng } from '../../demo/random.js'
import { composeSearchQueries } from '../../demo/search-queries.js'
import { ProviderError, type AioAdapter, type AioAnswer, type AioRequest, type AnswerAdapter, type AskRequest, type ProviderAnswer } from './types.js'

function promptDef(text: string): PromptDef {
  return PROMPT_DEFS.find((p) => p.text === text) ?? { key: 'custom', text, tags: ['comparison'] }
}

function mentioned(rng: Rng, prompt: PromptDef): BrandProfile[] {
  const named = BRAND_PROFILES.filter((b) => prompt.named?.includes(b.key))
  const others = rng.shuffle(BRAND_PROFILES.filter((b) => !named.includes(b) && rng.chance((b.mentionStart + b.mentionEnd) / 2)))
  return [...named, ...others].slice(0, rng.int(2, 5))
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(new ProviderError('timeout', 'the demo answer was cancelled'))
    })
  })
}

/** ±30 % around the configured latency, so a run's answers arrive spread out as real ones do. */
const jitter = (latencyMs: number) => (latencyMs === 0 ? 0 : Math.round(latencyMs * (0.7 + randomInt(0, 601) / 1000)))

export function demoAnswerAdapter(options: { latencyMs: number }): AnswerAdapter {
  return {
    kind: 'demo',
    async ask(request: AskRequest): Promise<ProviderAnswer> {
      const started = Date.now()
      await sleep(Math.min(jitter(options.latencyMs), request.timeoutMs), request.signal)
      const rng = new Rng(randomInt(0, 2 ** 31))
      const prompt = promptDef(request.prompt)
      const brands = mentioned(rng, prompt)
      const provider = request.target.provider
      const citations: Citation[] = [
        ...brands.slice(0, 2).map((b) => {
          const page = rng.pick(b.pages)
          return { url: brandUrl(rng, b, provider, page.path), title: page.title.replace('{name}', b.name) }
        }),
        ...rng.sample(SOURCE_DEFS, 2).map((s) => ({ url: s.url.replace('{domain}', brands[0]?.domain ?? 'example.com'), title: s.title })),
      ]
      const content = composeAnswer({ rng, prompt, provider, t: 1, mentioned: brands, citations })
      // The searches a web-search target "ran" (query fan-out), as the engines report them.
      const searchQueries = composeSearchQueries({ rng, prompt, provider, mentioned: brands, year: new Date().getUTCFullYear() })
      const tokensIn = Math.ceil(request.prompt.length / 4)
      const tokensOut = Math.ceil(content.length / 4)
      return {
        content,
        citations,
        modelServed: request.target.model,
        tokensIn,
        tokensOut,
        webSearchCalls: request.target.web_search ? searchQueries.length : 0,
        ...(request.target.web_search ? { searchQueries } : {}),
        latencyMs: Date.now() - started,
        raw: { demo: true, model: request.target.model, content, citations },
      }
    },
  }
}

/** AI overviews for demo AIO targets: about half the searches show one. */
export function demoAioAdapter(options: { latencyMs: number }): AioAdapter {
  return {
    serp: 'serpapi',
    async observe(request: AioRequest): Promise<AioAnswer> {
      const started = Date.now()
      await sleep(Math.min(jitter(options.latencyMs), request.timeoutMs), request.signal)
      const rng = new Rng(randomInt(0, 2 ** 31))
      const prompt = promptDef(request.query)
      const hasAio = rng.chance(0.5)
      const overviewText = hasAio ? composeOverview({ rng, prompt, brands: mentioned(rng, prompt) }) : ''
      return { hasAio, overviewText, citations: [], latencyMs: Date.now() - started, raw: { demo: true, has_aio: hasAio, overview_text: overviewText } }
    },
  }
}
