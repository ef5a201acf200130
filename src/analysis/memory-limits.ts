// Defaults of the analysis memory settings (config.ts reads the environment; this module
// stays import-light so that config can use it). Figures: README.md beside this file, issue 33.
import { totalmem } from 'node:os'

const MB = 1024 * 1024

/**
 * MATCHER_CACHE_MB when unset: 1/16 of the machine's memory, between 128 and 512 MB. A
 * workspace at the brand limits compiles to 34 MB (74 MB at the former 200-character
 * limit), so 512 MB holds 15 of them at once, 128 MB three; a 24 GB machine gets 512.
 */
export function defaultMatcherCacheMb(totalMemoryBytes = totalmem()): number {
  return Math.min(512, Math.max(128, Math.floor(totalMemoryBytes / MB / 16)))
}

/**
 * ANALYSIS_THREAD_HEAP_MB when unset. A thread holds the NLP model (~60 MB of heap) and the
 * batch it analyses; the largest batch the API accepts (10 MB of answers split over the
 * threads) fits, a runaway one does not take the process with it.
 */
export const DEFAULT_THREAD_HEAP_MB = 512
