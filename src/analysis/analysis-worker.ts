// A worker thread of the analysis pool (analysis-pool.ts): analyses the responses it is
// sent with the brand matcher it is told to use, exactly as the main thread would.
import { parentPort } from 'node:worker_threads'
import { analyzeResponse, type ResponseAnalysis } from './analyze-response.js'
import { BrandMatcher, compileBrandMatcher, type SharedBrandMatcher } from './mentions.js'
import type { CitationInput } from './citations.js'

export interface AnalysisTask {
  id: number
  /** the matcher's id in the main thread */
  matcherId: number
  /** its shared buffer, the first time this thread is sent it */
  matcher?: SharedBrandMatcher
  items: { content: string; citations?: CitationInput[] | null }[]
}

/** The pool no longer sends tasks for this matcher: drop the reference so its buffer can be freed. */
export interface ForgetMatcher {
  forget: number
}

/** Asks for this thread's heap figures. */
export interface MemoryRequest {
  memory: number
}

export interface ThreadMemory {
  heapUsed: number
  heapTotal: number
  external: number
  arrayBuffers: number
  matchers: number
}

export type AnalysisReply = { id: number; results: ResponseAnalysis[] } | { id: number; error: string } | { memory: number; usage: ThreadMemory }

// Matchers are compiled once, on the main thread, into a SharedArrayBuffer: a thread wraps
// the buffer it is sent (no copy, no compilation) and keeps it until told to forget it.
const matchers = new Map<number, BrandMatcher>()

parentPort?.on('message', (message: AnalysisTask | ForgetMatcher | MemoryRequest) => {
  if ('forget' in message) {
    matchers.delete(message.forget)
    return
  }
  if ('memory' in message) {
    const { heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage()
    parentPort?.postMessage({ memory: message.memory, usage: { heapUsed, heapTotal, external, arrayBuffers, matchers: matchers.size } } satisfies AnalysisReply)
    return
  }
  let reply: AnalysisReply
  try {
    if (message.matcher) matchers.set(message.matcherId, new BrandMatcher(message.matcher))
    const matcher = matchers.get(message.matcherId)
    if (!matcher) throw new Error('this thread was not sent the brand matcher of the task')
    reply = { id: message.id, results: message.items.map((item) => analyzeResponse(item, matcher)) }
  } catch (error) {
    reply = { id: message.id, error: error instanceof Error ? error.message : String(error) }
  }
  parentPort?.postMessage(reply)
})
// The NLP model loads on first use (~0.5 s): here, before the thread reports ready, so a
// warmed-up pool (AnalysisPool.warmUp) has no first-batch delay left.
analyzeResponse({ content: 'Warming up: the model loads now.' }, compileBrandMatcher([]))
parentPort?.postMessage('ready')
