// A worker thread of the analysis pool (analysis-pool.ts): analyses the responses it is
// sent with the brand set it is sent, exactly as the main thread would.
import { parentPort } from 'node:worker_threads'
import { analyzeResponse, type ResponseAnalysis } from './analyze-response.js'
import { compileBrandMatcher, type BrandTerms } from './mentions.js'
import type { CitationInput } from './citations.js'

export interface AnalysisTask {
  id: number
  brands: BrandTerms[]
  items: { content: string; citations?: CitationInput[] | null }[]
}

export type AnalysisReply = { id: number; results: ResponseAnalysis[] } | { id: number; error: string }

parentPort?.on('message', (task: AnalysisTask) => {
  let reply: AnalysisReply
  try {
    // Compiled once per brand set: compileBrandMatcher caches by content.
    const matcher = compileBrandMatcher(task.brands)
    reply = { id: task.id, results: task.items.map((item) => analyzeResponse(item, matcher)) }
  } catch (error) {
    reply = { id: task.id, error: error instanceof Error ? error.message : String(error) }
  }
  parentPort?.postMessage(reply)
})
parentPort?.postMessage('ready')
