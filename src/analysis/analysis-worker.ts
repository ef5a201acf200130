// A worker thread of the analysis pool (analysis-pool.ts): analyses the responses it is
// sent with the brand set it is sent, exactly as the main thread would.
import { parentPort } from 'node:worker_threads'
import { analyzeResponse, type ResponseAnalysis } from './analyze-response.js'
import { compileBrandMatcher, type BrandTerms } from './mentions.js'
import type { CitationInput } from './citations.js'

export interface AnalysisTask {
  id: number
  /** the brand set, when it differs from the one this thread was last sent */
  brands?: BrandTerms[]
  items: { content: string; citations?: CitationInput[] | null }[]
}

export type AnalysisReply = { id: number; results: ResponseAnalysis[] } | { id: number; error: string }

// A workspace at the brand limits has megabytes of terms: the pool sends a brand set once
// and this thread keeps its compiled matcher until another set arrives.
let current: ReturnType<typeof compileBrandMatcher> | undefined

parentPort?.on('message', (task: AnalysisTask) => {
  let reply: AnalysisReply
  try {
    if (task.brands) current = compileBrandMatcher(task.brands)
    const matcher = current
    if (!matcher) throw new Error('no brand set was sent to this thread')
    reply = { id: task.id, results: task.items.map((item) => analyzeResponse(item, matcher)) }
  } catch (error) {
    // A brand set that failed to compile must not leave the previous one in use.
    if (task.brands) current = undefined
    reply = { id: task.id, error: error instanceof Error ? error.message : String(error) }
  }
  parentPort?.postMessage(reply)
})
// The NLP model loads on first use (~0.5 s): here, before the thread reports ready, so a
// warmed-up pool (AnalysisPool.warmUp) has no first-batch delay left.
analyzeResponse({ content: 'Warming up: the model loads now.' }, compileBrandMatcher([]))
parentPort?.postMessage('ready')
