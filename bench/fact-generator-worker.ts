// A thread that builds COPY text for chunks of the benchmark dataset (bench/fact-generator.ts)
// and hands it back as transferred bytes (no copy), so generation uses every core the
// machine has while the main thread only feeds the COPY connections.
import { parentPort } from 'node:worker_threads'
import { CopyTextSink, generateChunk, type ChunkJob } from './fact-generator.js'

const encoder = new TextEncoder()
parentPort!.on('message', (job: ChunkJob & { jobId: number }) => {
  const sink = new CopyTextSink()
  const responses = generateChunk(job, sink)
  const text = [encoder.encode(sink.responses), encoder.encode(sink.mentions), encoder.encode(sink.citations)]
  parentPort!.postMessage(
    { jobId: job.jobId, responses, text },
    text.map((t) => t.buffer as ArrayBuffer),
  )
})
