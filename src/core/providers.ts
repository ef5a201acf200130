/** The AI providers Beacon knows: the spec's `models` filter values and every response's provider. */
export const PROVIDERS = ['openai', 'anthropic', 'google', 'perplexity'] as const

export type Provider = (typeof PROVIDERS)[number]
