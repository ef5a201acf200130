// The web searches a demo answer "ran" (query fan-out, docs/collection.md), so the demo shows
// what the engines searched. Shaped like what the engines report: Gemini's
// `groundingMetadata.webSearchQueries` (a few short keyword queries per answer), OpenAI's
// `web_search_call` `action.query`, Anthropic's `server_tool_use` `input.query`: lower-case
// keyword phrases built from the question, often with the year, a brand's pricing or reviews,
// or "X vs Y". Gemini fans out widest, Anthropic narrowest.
import type { BrandProfile, PromptDef } from './catalog.js'
import type { Rng } from './random.js'

type Provider = 'openai' | 'anthropic' | 'google' | 'perplexity'

/** How many searches each engine runs for one answer, [min, max]. */
const FAN_OUT: Record<Provider, [number, number]> = { google: [2, 4], perplexity: [1, 3], openai: [1, 3], anthropic: [1, 2] }

const LEADING_WORDS = /^(what is|what are|which|how do i|how much does|how to|is|are|best way to)\s+/

/** The question as a keyword search: lower case, no punctuation, no leading question words. */
export function coreSearch(promptText: string): string {
  let core = promptText
    .toLowerCase()
    .replace(/[?!.,:;"]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  for (let i = 0; i < 2; i++) core = core.replace(LEADING_WORDS, '')
  return core.replace(/^(the|a|an)\s+/, '').trim()
}

export function composeSearchQueries(options: { rng: Rng; prompt: PromptDef; provider: Provider; mentioned: readonly BrandProfile[]; year: number }): string[] {
  const { rng, prompt, provider, mentioned, year } = options
  const core = coreSearch(prompt.text)
    .replace(/\b20\d\d\b/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  const [first, second] = mentioned
  const brandSearches = [
    ...(first ? [`${first.name.toLowerCase()} pricing`, `${first.name.toLowerCase()} review ${year}`] : []),
    ...(first && second ? [`${first.name.toLowerCase()} vs ${second.name.toLowerCase()}`] : []),
  ]
  const pool = prompt.tags.includes('how-to')
    ? [`how to ${core}`, `${core} guide`, `${core} template`, `${core} best practices`]
    : [
        `${core} ${year}`,
        ...(core.includes('review') ? [] : [`${core} reviews`]),
        `${core} reddit`,
        ...(core.startsWith('best ') ? [core.replace(/^best /, 'top ')] : []),
        ...brandSearches,
      ]
  const [min, max] = FAN_OUT[provider]
  // The question itself comes first, as engines usually search it first.
  return [pool[0], ...rng.sample(pool.slice(1), rng.int(min, max) - 1)]
}
