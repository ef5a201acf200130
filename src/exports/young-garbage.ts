// Socket reads of a COPY, collected while they are still young (copy-out-stream.ts).
//
// Each read of pg's socket is an ArrayBuffer of its own (≤ 64 KB, allocated by Node, outside
// V8's heap), garbage once the client has its bytes. V8 frees such buffers only when a
// collection finds them dead, and a year's file allocates hundreds of MB of them while
// allocating little else: the young generation's JavaScript objects fill it slowly, so no
// scavenge comes from them. V8's own trigger for buffers is a scavenge once the young
// generation holds twice the maximum semi-space of them: 2 × 16 MB on 64-bit Node 20. After
// a load test has grown the semi-spaces to that maximum, an export therefore held about
// 32 MB of dead reads before the first scavenge, and the reads that were in flight then
// were promoted and stayed until a full collection (process.memoryUsage().arrayBuffers:
// 0.7 → 32 MB, 19.7 MB after the scavenge; VmRSS +30 MB; at 1M responses one run in five
// grew 52 MB). The reads cannot be avoided (pg owns the socket, and Node gives a reused
// read buffer only to a socket created with `onread`), so they are collected sooner: a
// scavenge every COLLECT_EVERY_BYTES read. A scavenge of a young generation that is nearly
// all dead takes about a millisecond, and is what V8 does anyway at 32 MB. The year's file of
// 1M responses after a load test, ten runs each alternated with the previous version on the
// shared machine: peak RSS growth 4-17 MB (before: 0-33 MB, 52 MB once), server CPU per file
// 3.9 s on average (before: 4.5 s), export / COPY median 1.02 both.
import v8 from 'node:v8'
import vm from 'node:vm'

/** Bytes of socket reads between two young-generation collections. */
export const COLLECT_EVERY_BYTES = 8 * 1024 * 1024

type Gc = (options?: { type: 'minor' | 'major' }) => unknown

/**
 * V8's gc() as --expose-gc gives it, obtained at run time: the flag makes each new context
 * get one, so one context is made with it set and the flag is cleared again (no other
 * context, the main one included, gains a gc()). Undefined if V8 refuses.
 */
function exposedGc(): Gc | undefined {
  const own = (globalThis as { gc?: Gc }).gc
  if (typeof own === 'function') return own
  try {
    v8.setFlagsFromString('--expose-gc')
    const gc = vm.runInNewContext('gc') as unknown
    return typeof gc === 'function' ? (gc as Gc) : undefined
  } catch {
    return undefined
  } finally {
    v8.setFlagsFromString('--no-expose-gc')
  }
}

let minorGc: (() => void) | null | undefined

/** A scavenge (young generation only), or nothing where gc() cannot be had. */
export function collectYoungGeneration(): void {
  if (minorGc === undefined) {
    const gc = exposedGc()
    minorGc = gc ? () => gc({ type: 'minor' }) : null
  }
  minorGc?.()
}

/** Counts bytes that became garbage and collects the young generation every `every` bytes. */
export class YoungGarbage {
  private bytes = 0
  /** collections asked for so far */
  collections = 0

  constructor(
    private readonly every: number,
    private readonly collect: () => void,
  ) {}

  add(bytes: number): void {
    this.bytes += bytes
    if (this.bytes < this.every) return
    this.bytes = 0
    this.collections++
    this.collect()
  }
}

/** The socket reads of every COPY in this process, concurrent ones counted together. */
export const copyReads = new YoungGarbage(COLLECT_EVERY_BYTES, collectYoungGeneration)
