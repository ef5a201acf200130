/**
 * Small, dependency-free seeded randomness for the demo dataset generator.
 *
 * Everything here is deterministic: the same seed always yields the same
 * sequence. Never use Math.random or the clock in demo data.
 */

/** 32-bit string hash (FNV-1a followed by a murmur3-style avalanche). */
export function hashString(input: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < input.length; i++) {
    h ^= input.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Derives an independent 32-bit seed for a labelled sub-stream of `seed`. */
export function deriveSeed(seed: number, label: string): number {
  return hashString(`${seed >>> 0}|${label}`)
}

/** mulberry32: a tiny, fast 32-bit PRNG returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export class Rng {
  private readonly nextFloat: () => number

  constructor(seed: number) {
    this.nextFloat = mulberry32(seed)
  }

  /** A generator for the sub-stream `label` of `seed` (order-independent). */
  static for(seed: number, label: string): Rng {
    return new Rng(deriveSeed(seed, label))
  }

  /** Float in [0, 1). */
  next(): number {
    return this.nextFloat()
  }

  /** Integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.nextFloat() * (max - min + 1))
  }

  /** Float in [min, max). */
  float(min: number, max: number): number {
    return min + this.nextFloat() * (max - min)
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.nextFloat() < p
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: empty list')
    return items[Math.floor(this.nextFloat() * items.length)]
  }

  /** Picks one item with probability proportional to its weight. */
  weighted<T>(items: readonly T[], weight: (item: T) => number): T {
    if (items.length === 0) throw new Error('Rng.weighted: empty list')
    let total = 0
    for (const item of items) total += Math.max(0, weight(item))
    let r = this.nextFloat() * total
    for (const item of items) {
      r -= Math.max(0, weight(item))
      if (r < 0) return item
    }
    return items[items.length - 1]
  }

  /** Picks `count` distinct items, weighted, without replacement. */
  weightedSample<T>(items: readonly T[], count: number, weight: (item: T) => number): T[] {
    const pool = [...items]
    const out: T[] = []
    while (out.length < count && pool.length > 0) {
      const chosen = this.weighted(pool, weight)
      out.push(chosen)
      pool.splice(pool.indexOf(chosen), 1)
    }
    return out
  }

  /** Returns a shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items]
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.nextFloat() * (i + 1))
      const tmp = out[i]
      out[i] = out[j]
      out[j] = tmp
    }
    return out
  }

  /** `count` distinct items, uniformly. */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, count))
  }
}
