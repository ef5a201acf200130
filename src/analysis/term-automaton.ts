// An Aho–Corasick automaton over code points: one pass over a text reports every
// occurrence of every term, at a cost per character that does not depend on how many
// terms there are (issue 17: 3,000+ aliases made the single alternation RegExp crawl or
// exceed V8's size limit). Overlap and boundary rules live in mentions.ts; this only
// finds candidates.
//
// Memory (issue 33; figures in README.md beside this file, "Matcher memory"): 500 brands
// × 50 aliases of 200 characters is ~4.6M trie nodes. One JavaScript array per field cost
// ~85 bytes a node (390 MB per compiled set, in every thread that compiled it). Here a
// compiled automaton is four Int32 rows per node in one flat buffer — 16 bytes a node,
// 74 MB for that set — that can be a SharedArrayBuffer, so every worker thread reads the
// same bytes instead of compiling its own copy:
// - nodes are numbered breadth-first with each node's children consecutive and sorted by
//   code point, so a node's children are the range firstChild[n] .. firstChild[n + 1]
//   (found by binary search; most nodes have one) and no edge table is needed;
// - the trie is built from the sorted terms, level by level, so the node count is known
//   (from the common prefixes of neighbours) before anything is allocated;
// - a node holds the first term its match ends (its own, else via suffix links), and each
//   term the next one: output links cost one row per term, not per node.
// Building is a generator that yields now and then, so a caller can run it in slices
// between other work (compile without blocking the event loop) or straight through.

const NONE = -1
const ROOT_TABLE = 128
/** work units (roughly: array reads) between two yields of a build */
const STEP = 32_768

/** Reusable output of `search`: (term, start, end) triples. */
export interface HitBuffer {
  data: Int32Array
}

/** Terms as one flat array of code points: term t is codePoints[offsets[t] .. offsets[t + 1]). */
export interface FlatTerms {
  codePoints: Int32Array
  /** terms + 1 entries */
  offsets: Int32Array
  count: number
}

/** Bytes of an automaton's buffer for this many nodes and terms. */
export function automatonBytes(nodes: number, terms: number): number {
  return 4 * (4 * nodes + 1 + ROOT_TABLE + 2 * terms)
}

export class TermAutomaton {
  /** trie nodes, the root included */
  readonly size: number
  readonly terms: number
  // The rows (written only by buildAutomaton).
  /** the code point on the edge into each node */
  readonly label: Int32Array
  readonly fail: Int32Array
  /** first term reported at this node (its own, else the nearest on the fail chain), or NONE */
  readonly out: Int32Array
  /** children of n: firstChild[n] .. firstChild[n + 1] - 1 (size + 1 entries) */
  readonly firstChild: Int32Array
  /** the root's children for ASCII code points: most characters of a text are read at the root */
  readonly rootAscii: Int32Array
  readonly termLength: Int32Array
  /** the next term reported after this one at the same position (a shorter suffix), or NONE */
  readonly termNext: Int32Array

  /** Views on `buffer` from `byteOffset` (automatonBytes(nodes, terms) bytes). */
  constructor(buffer: ArrayBufferLike, byteOffset: number, nodes: number, terms: number) {
    this.size = nodes
    this.terms = terms
    let at = byteOffset
    const take = (length: number) => {
      const view = new Int32Array(buffer, at, length)
      at += length * 4
      return view
    }
    this.label = take(nodes)
    this.fail = take(nodes)
    this.out = take(nodes)
    this.firstChild = take(nodes + 1)
    this.rootAscii = take(ROOT_TABLE)
    this.termLength = take(terms)
    this.termNext = take(terms)
  }

  /** The child of `node` along code point `c`, or NONE. */
  child(node: number, c: number): number {
    if (node === 0 && c < ROOT_TABLE) return this.rootAscii[c]
    const label = this.label
    let lo = this.firstChild[node]
    let hi = this.firstChild[node + 1]
    if (hi - lo === 1) return label[lo] === c ? lo : NONE
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const v = label[mid]
      if (v === c) return mid
      if (v < c) lo = mid + 1
      else hi = mid
    }
    return NONE
  }

  /**
   * Every occurrence of every term in `text[0, length)`, as (term, start, end) triples
   * appended to `hits` (grown as needed; start/end are code point indexes). Returns the
   * number of triples. A buffer instead of a callback: no closure per call.
   */
  search(text: ArrayLike<number>, length: number, hits: HitBuffer): number {
    const { fail, out, termLength, termNext } = this
    let count = 0
    let node = 0
    for (let i = 0; i < length; i++) {
      const c = text[i]
      let next = this.child(node, c)
      while (next === NONE && node !== 0) {
        node = fail[node]
        next = this.child(node, c)
      }
      node = next === NONE ? 0 : next
      for (let term = out[node]; term !== NONE; term = termNext[term]) {
        if (count * 3 + 3 > hits.data.length) {
          const grown = new Int32Array(hits.data.length * 2 + 48)
          grown.set(hits.data)
          hits.data = grown
        }
        hits.data[count * 3] = term
        hits.data[count * 3 + 1] = i + 1 - termLength[term]
        hits.data[count * 3 + 2] = i + 1
        count++
      }
    }
    return count
  }
}

/** The terms sorted, and the trie's node count: what a build needs to know before allocating. */
export interface AutomatonPlan {
  terms: FlatTerms
  /** term indexes in code point order (equal terms by index) */
  sorted: Int32Array
  /** common prefix length of sorted[k] with sorted[k - 1] */
  lcp: Int32Array
  nodes: number
  bytes: number
}

/** Sorts the terms and counts the trie's nodes (1 + each term's length beyond its common prefix with the previous). */
export function* planAutomaton(terms: FlatTerms): Generator<void, AutomatonPlan> {
  const { codePoints, offsets, count } = terms
  const length = (t: number) => offsets[t + 1] - offsets[t]
  let work = 0
  // Bottom-up merge sort of term indexes (stable, so equal terms stay in index order),
  // in a generator so that a long sort can be sliced too.
  let sorted = new Int32Array(count)
  for (let t = 0; t < count; t++) sorted[t] = t
  let spare = new Int32Array(count)
  for (let width = 1; width < count; width *= 2) {
    for (let lo = 0; lo < count; lo += 2 * width) {
      const mid = Math.min(lo + width, count)
      const hi = Math.min(lo + 2 * width, count)
      let i = lo
      let j = mid
      let k = lo
      while (i < mid && j < hi) {
        const a = sorted[i]
        const b = sorted[j]
        const la = length(a)
        const lb = length(b)
        const n = Math.min(la, lb)
        let p = 0
        const oa = offsets[a]
        const ob = offsets[b]
        while (p < n && codePoints[oa + p] === codePoints[ob + p]) p++
        work += p + 1
        const bFirst = p < n ? codePoints[ob + p] < codePoints[oa + p] : lb < la
        spare[k++] = bFirst ? sorted[j++] : sorted[i++]
      }
      while (i < mid) spare[k++] = sorted[i++]
      while (j < hi) spare[k++] = sorted[j++]
      work += hi - lo
      if (work >= STEP) {
        work = 0
        yield
      }
    }
    ;[sorted, spare] = [spare, sorted]
  }
  const lcp = spare // reused: same length
  let nodes = 1
  for (let k = 0; k < count; k++) {
    const t = sorted[k]
    let p = 0
    if (k > 0) {
      const s = sorted[k - 1]
      const n = Math.min(length(s), length(t))
      while (p < n && codePoints[offsets[s] + p] === codePoints[offsets[t] + p]) p++
    }
    lcp[k] = p
    nodes += length(t) - p
    work += p + 1
    if (work >= STEP) {
      work = 0
      yield
    }
  }
  return { terms, sorted, lcp, nodes, bytes: automatonBytes(nodes, count) }
}

/** Builds the planned automaton into `buffer` at `byteOffset` (automaton bytes, zeroed or not). */
export function* buildAutomaton(plan: AutomatonPlan, buffer: ArrayBufferLike, byteOffset: number): Generator<void, TermAutomaton> {
  const { terms, sorted, lcp, nodes } = plan
  const { codePoints, offsets, count } = terms
  const automaton = new TermAutomaton(buffer, byteOffset, nodes, count)
  const { label, fail, out, firstChild, rootAscii, termLength, termNext } = automaton
  // The buffer may be reused memory: every row is written before it is read. Filling
  // 4.6M-entry rows takes tens of milliseconds, so in steps too.
  yield* fillInSteps(label, NONE)
  yield* fillInSteps(fail, 0)
  yield* fillInSteps(out, NONE)
  yield* fillInSteps(firstChild, NONE)
  termNext.fill(NONE)
  for (let t = 0; t < count; t++) termLength[t] = offsets[t + 1] - offsets[t]
  let work = 0

  // Level by level: the nodes at depth d + 1 are the distinct (d + 1)-prefixes of the terms
  // at least that long, met in sorted order, which is breadth-first order with children
  // sorted by code point; a sorted term starts a new node at depth d + 1 unless it shares
  // more than d code points with the term before it.
  const current = new Int32Array(count) // per sorted position: its node at depth d
  const active = new Int32Array(count) // sorted positions of the terms longer than d
  let activeCount = 0
  for (let k = 0; k < count; k++) if (termLength[sorted[k]] > 0) active[activeCount++] = k
  let next = 1
  for (let d = 0; activeCount > 0; d++) {
    let kept = 0
    let previous = NONE
    for (let a = 0; a < activeCount; a++) {
      const k = active[a]
      const t = sorted[k]
      let node: number
      if (previous === NONE || d >= lcp[k]) {
        node = next++
        label[node] = codePoints[offsets[t] + d]
        const parent = current[k]
        if (firstChild[parent] === NONE) firstChild[parent] = node
      } else node = previous
      current[k] = node
      previous = node
      // Equal terms: the first in sorted order (the lowest index) is the one reported.
      if (termLength[t] === d + 1) {
        if (out[node] === NONE) out[node] = t
      } else active[kept++] = k
    }
    activeCount = kept
    work += activeCount + 1
    if (work >= STEP) {
      work = 0
      yield
    }
  }
  if (next !== nodes) throw new Error(`term automaton: planned ${nodes} nodes, built ${next}`)
  // A childless node's range is empty: it starts where the next node's starts.
  firstChild[nodes] = nodes
  for (let n = nodes - 1; n >= 0; n--) {
    if (firstChild[n] === NONE) firstChild[n] = firstChild[n + 1]
    if (n % STEP === 0) yield
  }
  for (let c = 0; c < ROOT_TABLE; c++) rootAscii[c] = NONE
  for (let child = firstChild[0]; child < firstChild[1]; child++) if (label[child] < ROOT_TABLE) rootAscii[label[child]] = child

  // Fail links in breadth-first (= id) order: a node's fail target is shallower, so final
  // before its children; outputs follow the fail target's.
  for (let parent = 0; parent < nodes; parent++) {
    for (let child = firstChild[parent]; child < firstChild[parent + 1]; child++) {
      let target = 0
      if (parent !== 0) {
        const c = label[child]
        for (let f = fail[parent]; ; f = fail[f]) {
          const step = automaton.child(f, c)
          if (step !== NONE) {
            target = step
            break
          }
          if (f === 0) break
          work++
        }
      }
      fail[child] = target
      const own = out[child]
      if (own === NONE) out[child] = out[target]
      else termNext[own] = out[target]
    }
    work += 2
    if (work >= STEP) {
      work = 0
      yield
    }
  }
  return automaton
}

function* fillInSteps(row: Int32Array, value: number): Generator<void> {
  const chunk = 8 * STEP
  for (let from = 0; from < row.length; from += chunk) {
    row.fill(value, from, Math.min(row.length, from + chunk))
    yield
  }
}

/** Runs a build generator to its end on this thread. */
export function runToEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * Runs a build generator in slices of about `sliceMs` of this thread's time, giving the
 * event loop a turn between slices, so other requests are answered while it builds.
 */
export async function runInSlices<T>(steps: Generator<void, T>, sliceMs = 8): Promise<T> {
  let deadline = performance.now() + sliceMs
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (performance.now() >= deadline) {
      await new Promise((resolve) => setImmediate(resolve))
      deadline = performance.now() + sliceMs
    }
  }
}
