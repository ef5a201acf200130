// The worker thread's entry: a worker does not inherit tsx's loader from the main thread
// (Node 20), so it registers tsx itself before loading the TypeScript worker.
import { register } from 'tsx/esm/api'

register()
await import('./fact-generator-worker.ts')
