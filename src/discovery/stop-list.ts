// The reviewable lists behind discovery (data/discovery-stop-list.json): common words and the
// AI providers' own names, folded once at load. A malformed file fails at start-up, naming itself.
import { readFileSync } from 'node:fs'
import { foldName } from './name-key.js'

export interface StopList {
  commonWords: Set<string>
  providers: string[]
}

function load(): StopList {
  const raw = JSON.parse(readFileSync(new URL('./data/discovery-stop-list.json', import.meta.url), 'utf8')) as Record<string, unknown>
  const list = (field: string): string[] => {
    const value = raw[field]
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new Error(`discovery-stop-list.json: "${field}" must be an array of strings`)
    return value as string[]
  }
  return { commonWords: new Set(list('common_words').map(foldName)), providers: [...new Set(list('providers').map(foldName))] }
}

export const STOP_LIST: StopList = load()

/**
 * Names of well-known cited sites (review sites, forums, encyclopedias, news): the first
 * label of every domain in analysis's source list ("g2", "capterra", "reddit"). Answers name
 * them as sources, not as competitors.
 */
function loadSites(): string[] {
  const raw = JSON.parse(readFileSync(new URL('../analysis/data/source-domains.json', import.meta.url), 'utf8')) as Record<string, unknown>
  const labels = new Set<string>()
  for (const [field, value] of Object.entries(raw)) {
    if (field.startsWith('$') || !Array.isArray(value)) continue
    for (const domain of value) if (typeof domain === 'string') labels.add(foldName(domain.split('.')[0]))
  }
  return [...labels]
}

export const KNOWN_SITES: readonly string[] = loadSites()
