// winkParse must read a line exactly as wink-nlp's own readDoc does with the same pipe:
// the same tokens, negation flags, POS tags, sentences, sentiment hits and document score.
// wink's lexicon grows with every unknown word it sees, and a tokenization can depend on
// what it already knows, so both sides read the same lines in the same order, and the
// lines are chosen to make the remembered chunks go stale (a chunk first seen while a word
// in it was unknown, seen again after that word was learnt). The evaluation's public
// sentences and answers are added when the data is prepared (BEACON_EVAL_DATA).
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { WinkMethods } from 'wink-nlp'
import { describe, expect, it } from 'vitest'
import { winkParse } from '../../src/analysis/wink-parse.js'
import { makeResponse, plainBrands, withAliases } from '../../bench/synthetic-answers.js'

const require = createRequire(import.meta.url)

/** wink-nlp's public readDoc with analysis's pipe, the sentiment setter's hits kept. */
function reference(): (line: string) => unknown {
  const winkNLP = require('wink-nlp') as typeof import('wink-nlp').default
  const model = require('wink-eng-lite-web-model') as typeof import('wink-eng-lite-web-model').default
  type Sa = { machines: unknown; setter: (px: number[][], ...rest: unknown[]) => void }
  const loadSa = (model as unknown as { sa: () => Sa }).sa.bind(model)
  let hits: number[][] = []
  const wrapped = {
    ...model,
    sa: (): Sa => {
      const loaded = loadSa()
      return {
        machines: loaded.machines,
        setter: (px, ...rest) => {
          hits = px
          loaded.setter(px, ...rest)
        },
      }
    },
  }
  const nlp: WinkMethods = winkNLP(wrapped, ['sbd', 'negation', 'sentiment', 'pos'])
  const its = nlp.its
  return (line) => {
    hits = []
    const doc = nlp.readDoc(line)
    const tokens = doc.tokens()
    return {
      values: tokens.out(its.value),
      negated: tokens.out(its.negationFlag),
      pos: tokens.out(its.pos),
      spans: doc.sentences().out(its.span),
      hits,
      sentiment: doc.out(its.sentiment),
    }
  }
}

const written = [
  // wink splits an unknown `Quorvex's` into two tokens until it has seen `**Quorvex's**`,
  // which teaches it the whole word: the remembered chunk must then be tokenized again.
  "Quorvex's pricing is fair.",
  "**Quorvex's** pricing, (Quorvex's) plan",
  "Quorvex's pricing is fair.",
  'Zorblaxy-Quentor is great.',
  '(Zorblaxy-Quentor) is not good, but Zorblaxy is fine.',
  'Zorblaxy-Quentor',
  '(Zorblaxy-Quentor) again; **Zorblaxy** and __Quentor__!',
  'I can’t believe it isn’t butter — it wasn’t cheap, and we didn’t like it.',
  "Don't buy the U.S.A. model... it's e.g. 3.5x slower than the EU one (see https://example.com/a?b=c).",
  '- **Vexmi Tor** is excellent :) but the app is buggy :( #fail @support',
  '1.   Two  spaces,\tand a tab; then   more\u00a0non-breaking\u2009spaces here.',
  '| Model | Price | Rating |',
  '|---|---|---|',
  '### 2. **Sony WH-CH720N** – $89.99, 4.5/5 ⭐⭐⭐⭐',
  'Mr. Smith paid $1,299 on 3rd May at 10:30am for the 2020s-era version.',
  'email me at someone@example.org or call +1-555-0100',
  'Zorblaxy-Quentor.Zorblaxy',
  'Zorblaxy.Quentor.',
  '',
  '   ',
  'odd spaces:\u3000ideographic, zero\u200bwidth, \ufeffbom, tab\t\tand\r return \u2028 separator',
  '\t leading tab and trailing spaces   ',
  // The POS updater leaves some tags as text ("12") for the second POS machine to read.
  'We had a smiling waiter to help us with every request.',
  'The app has a confusing menu and a blinking cursor to guide you.',
  'They sent a smiling courier to deliver it, and a working charger to replace the broken one.',
  'not as good as Asana, whereas Notion is far better than Trello!!!',
]

describe('winkParse', () => {
  it("reads lines as wink-nlp's readDoc does, with chunks remembered across lines", () => {
    const read = reference()
    const brands = withAliases(plainBrands(30), 3, null)
    const lines = [...written, ...written]
    for (let i = 0; i < 40; i++) lines.push(...makeResponse(brands).content.split('\n'))
    lines.push(...written)
    const dir = process.env.BEACON_EVAL_DATA
    for (const file of ['mams-atsa.jsonl', 'tsa-md.jsonl', 'ai-product-bench.jsonl']) {
      if (!dir || !existsSync(`${dir}/${file}`)) continue
      const rows = readFileSync(`${dir}/${file}`, 'utf8').split('\n').filter(Boolean).slice(0, 300)
      for (const row of rows) lines.push(...(JSON.parse(row) as { text: string }).text.split('\n'))
    }
    let compared = 0
    for (const line of lines) {
      if (!/\S/.test(line)) continue
      expect(winkParse(line), line).toEqual(read(line))
      compared++
    }
    expect(compared).toBeGreaterThan(500)
  })
})
