// An Aho–Corasick automaton over code points: one pass over a text reports every
// occurrence of every term, at a cost per character that does not depend on how many
// terms there are (issue 17: 3,000+ aliases made the single alternation RegExp crawl or
// exceed V8's size limit). Overlap and boundary rules live in mentions.ts; this only
// finds candidates.
//
// Memory matters for long aliases (100 brands × 50 aliases × 190 characters is ~1M trie
// nodes), so nodes are rows of flat arrays, and most nodes, which have one child, keep it
// inline instead of in a Map.

const NONE = -1

/** Reusable output of `search`: (term, start, end) triples. */
export interface HitBuffer {
  data: Int32Array
}

export class TermAutomaton {
  // Trie rows. `edgeChar/edgeNode` hold a node's only child; a node with several children
  // keeps them all in `branches[node]` instead.
  private readonly edgeChar: number[] = [NONE]
  private readonly edgeNode: number[] = [NONE]
  private readonly branches: (Map<number, number> | undefined)[] = [undefined]
  private readonly fail: number[] = [0]
  /** the term ending exactly at this node, or NONE */
  private readonly termAt: number[] = [NONE]
  /** nearest node on the fail chain that ends a term (dictionary suffix link), or NONE */
  private readonly outputLink: number[] = [NONE]
  private readonly depth: number[] = [0]
  /** the root's children for ASCII code points: most characters of a text are read at the root */
  private readonly rootAscii = new Int32Array(128).fill(NONE)
  readonly size: number

  /** `terms` as code point arrays; equal terms: the first one wins. */
  constructor(terms: readonly (readonly number[])[]) {
    terms.forEach((codePoints, index) => this.insert(codePoints, index))
    this.size = this.termAt.length
    this.link()
    for (let c = 0; c < 128; c++) this.rootAscii[c] = this.child(0, c)
  }

  private child(node: number, c: number): number {
    const branch = this.branches[node]
    if (branch !== undefined) return branch.get(c) ?? NONE
    return this.edgeChar[node] === c ? this.edgeNode[node] : NONE
  }

  private addChild(node: number, c: number): number {
    const created = this.termAt.length
    this.edgeChar.push(NONE)
    this.edgeNode.push(NONE)
    this.branches.push(undefined)
    this.fail.push(0)
    this.termAt.push(NONE)
    this.outputLink.push(NONE)
    this.depth.push(this.depth[node] + 1)
    const branch = this.branches[node]
    if (branch !== undefined) branch.set(c, created)
    else if (this.edgeChar[node] === NONE) {
      this.edgeChar[node] = c
      this.edgeNode[node] = created
    } else {
      this.branches[node] = new Map([
        [this.edgeChar[node], this.edgeNode[node]],
        [c, created],
      ])
    }
    return created
  }

  private insert(codePoints: readonly number[], index: number): void {
    if (codePoints.length === 0) return
    let node = 0
    for (const c of codePoints) {
      const next = this.child(node, c)
      node = next === NONE ? this.addChild(node, c) : next
    }
    if (this.termAt[node] === NONE) this.termAt[node] = index
  }

  private forEachChild(node: number, visit: (c: number, child: number) => void): void {
    const branch = this.branches[node]
    if (branch !== undefined) branch.forEach((child, c) => visit(c, child))
    else if (this.edgeChar[node] !== NONE) visit(this.edgeChar[node], this.edgeNode[node])
  }

  // Breadth-first, so a node's fail target (always shallower) is final before its children.
  private link(): void {
    const queue: number[] = []
    this.forEachChild(0, (_, child) => queue.push(child))
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]
      this.forEachChild(node, (c, child) => {
        let f = this.fail[node]
        let target = this.child(f, c)
        while (target === NONE && f !== 0) {
          f = this.fail[f]
          target = this.child(f, c)
        }
        this.fail[child] = target === NONE || target === child ? 0 : target
        const failNode = this.fail[child]
        this.outputLink[child] = this.termAt[failNode] !== NONE ? failNode : this.outputLink[failNode]
        queue.push(child)
      })
    }
  }

  /**
   * Every occurrence of every term in `text[0, length)`, as (term, start, end) triples
   * appended to `hits` (grown as needed; start/end are code point indexes). Returns the
   * number of triples. A buffer instead of a callback: no closure per call.
   */
  search(text: ArrayLike<number>, length: number, hits: HitBuffer): number {
    let count = 0
    let node = 0
    for (let i = 0; i < length; i++) {
      const c = text[i]
      let next = node === 0 && c < 128 ? this.rootAscii[c] : this.child(node, c)
      while (next === NONE && node !== 0) {
        node = this.fail[node]
        next = node === 0 && c < 128 ? this.rootAscii[c] : this.child(node, c)
      }
      node = next === NONE ? 0 : next
      let out = this.termAt[node] !== NONE ? node : this.outputLink[node]
      while (out !== NONE) {
        if (count * 3 + 3 > hits.data.length) {
          const grown = new Int32Array(hits.data.length * 2 + 48)
          grown.set(hits.data)
          hits.data = grown
        }
        hits.data[count * 3] = this.termAt[out]
        hits.data[count * 3 + 1] = i + 1 - this.depth[out]
        hits.data[count * 3 + 2] = i + 1
        count++
        out = this.outputLink[out]
      }
    }
    return count
  }
}
