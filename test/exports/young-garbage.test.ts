// The scavenges the COPY path asks for (src/exports/young-garbage.ts): every so many bytes,
// and a real young-generation collection that frees dead socket-read buffers.
import { describe, expect, it } from 'vitest'
import { collectYoungGeneration, YoungGarbage } from '../../src/exports/young-garbage.js'

describe('young garbage', () => {
  it('collects once every `every` bytes, the remainder carried over', () => {
    let collected = 0
    const garbage = new YoungGarbage(100, () => collected++)
    garbage.add(60)
    expect(collected).toBe(0)
    garbage.add(60) // 120: one collection, the count starts again
    expect(collected).toBe(1)
    garbage.add(99)
    expect(collected).toBe(1)
    garbage.add(1)
    expect(collected).toBe(2)
    garbage.add(1000) // one read larger than `every`: one collection
    expect(collected).toBe(3)
    expect(garbage.collections).toBe(3)
  })

  it('frees dead ArrayBuffers still in the young generation, without giving this context a gc()', async () => {
    const hadGc = typeof (globalThis as { gc?: unknown }).gc === 'function'
    // 24 MB of dead 64 KB buffers, as socket reads are: under V8's own 32 MB trigger.
    const allocate = () => {
      let sum = 0
      for (let i = 0; i < 384; i++) sum += new Uint8Array(new ArrayBuffer(64 * 1024))[0]
      return sum
    }
    collectYoungGeneration()
    await settled()
    const before = process.memoryUsage().arrayBuffers
    expect(allocate()).toBe(0)
    expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThan(20 * 2 ** 20)
    collectYoungGeneration()
    // V8 frees the buffers a scavenge found dead on a background thread, soon after it.
    const deadline = Date.now() + 5000
    while (process.memoryUsage().arrayBuffers - before > 4 * 2 ** 20 && Date.now() < deadline) await settled()
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * 2 ** 20)
    expect(typeof (globalThis as { gc?: unknown }).gc === 'function').toBe(hadGc)
  })
})

const settled = () => new Promise((resolve) => setTimeout(resolve, 20))
