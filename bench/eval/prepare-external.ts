// Builds the compact evaluation files `npm run eval:analysis` reads for its public-data
// sets (bench/eval/README.md says which data, from where, under which licence). The
// inputs are the published files as their authors distribute them; nothing is relabelled.
//
//   tsx bench/eval/prepare-external.ts --out <dir> \
//     --mams <MAMS-ATSA/raw/val.xml> --mams <MAMS-ATSA/raw/test.xml> \
//     --tsa-md <TSA-MD/TSA-MD.train.json> --tsa-md <TSA-MD/TSA-MD.dev.json> \
//     --apb <consumer-products/data/responses>   (the folder with chatgpt/ and google_ai_mode/) \
//     [--mams-check <MAMS-ATSA/raw/train.xml>]
//
// --mams-check: a check set beside the tuning part (MAMS's train file: sentences neither
// part holds), for rules tuned on the tuning part to be tried on fresh text before the
// held-out part is looked at (a part of its own, "check", in the printed table).
//
// Output (one JSON object per line):
//   mams-atsa.jsonl, tsa-md.jsonl, mams-check.jsonl  {"text", "targets": [{"term", "from", "to", "label": "+"|"-"|"0"}]}
//   ai-product-bench.jsonl          {"set", "model", "run", "queryId", "text", "recommended": [brand…]}
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    mams: { type: 'string', multiple: true, default: [] },
    'mams-check': { type: 'string', multiple: true, default: [] },
    'tsa-md': { type: 'string', multiple: true, default: [] },
    apb: { type: 'string' },
  },
})
if (!values.out) throw new Error('--out <dir> is required')
mkdirSync(values.out, { recursive: true })

type Label = '+' | '-' | '0'
interface Target {
  term: string
  from: number
  to: number
  label: Label
}

const POLARITY: Record<string, Label | undefined> = { positive: '+', negative: '-', neutral: '0' }

// MAMS XML is flat and regular (sentence > text + aspectTerms > aspectTerm attributes), so
// a pattern reads it without an XML dependency; entities are unescaped after slicing.
const unescapeXml = (s: string) =>
  s.replace(/&(quot|amp|lt|gt|apos|#\d+);/g, (_, e: string) =>
    e === 'quot' ? '"' : e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'apos' ? "'" : String.fromCodePoint(Number(e.slice(1))),
  )
function readMams(file: string): { text: string; targets: Target[] }[] {
  const xml = readFileSync(file, 'utf8')
  const out: { text: string; targets: Target[] }[] = []
  for (const [, body] of xml.matchAll(/<sentence>([\s\S]*?)<\/sentence>/g)) {
    const text = unescapeXml(/<text>([\s\S]*?)<\/text>/.exec(body)?.[1] ?? '')
    const targets: Target[] = []
    for (const [tag] of body.matchAll(/<aspectTerm\b[^>]*>/g)) {
      const attr = (name: string) => unescapeXml(new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1] ?? '')
      const label = POLARITY[attr('polarity')]
      const from = Number(attr('from'))
      const to = Number(attr('to'))
      const term = attr('term')
      if (!label) continue
      if (text.slice(from, to) !== term) throw new Error(`offsets do not match "${term}" in: ${text}`)
      targets.push({ term, from, to, label })
    }
    if (targets.length > 0) out.push({ text, targets })
  }
  return out
}

interface TsaMdRecord {
  text: string
  targets: { text: string; location: { begin: number; end: number }; sentiment: string }[]
}
function readTsaMd(file: string): { text: string; targets: Target[] }[] {
  const records = JSON.parse(readFileSync(file, 'utf8')) as TsaMdRecord[]
  return records
    .map((r) => ({
      text: r.text,
      // TSA-MD marks only sentiment-bearing targets: positive, negative or mixed. Mixed has
      // no place on a 3-class scale and is left out.
      targets: r.targets
        .filter((t) => POLARITY[t.sentiment])
        .map((t) => ({ term: t.text, from: t.location.begin, to: t.location.end, label: POLARITY[t.sentiment] as Label }))
        .filter((t) => r.text.slice(t.from, t.to) === t.term)
        .sort((a, b) => a.from - b.from),
    }))
    .filter((r) => r.targets.length > 0)
}

const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n'

if (values.mams.length > 0) {
  const rows = values.mams.flatMap(readMams)
  writeFileSync(join(values.out, 'mams-atsa.jsonl'), lines(rows))
  console.log(`mams-atsa.jsonl: ${rows.length} sentences, ${rows.reduce((n, r) => n + r.targets.length, 0)} targets`)
}
if (values['mams-check'].length > 0) {
  const rows = values['mams-check'].flatMap(readMams)
  writeFileSync(join(values.out, 'mams-check.jsonl'), lines(rows))
  console.log(`mams-check.jsonl: ${rows.length} sentences, ${rows.reduce((n, r) => n + r.targets.length, 0)} targets`)
}
if (values['tsa-md'].length > 0) {
  const rows = values['tsa-md'].flatMap(readTsaMd)
  writeFileSync(join(values.out, 'tsa-md.jsonl'), lines(rows))
  console.log(`tsa-md.jsonl: ${rows.length} sentences, ${rows.reduce((n, r) => n + r.targets.length, 0)} targets`)
}

interface ApbResponse {
  query_id: string
  model: string
  run: number
  response: string
  products_mentioned: { brand: string | null }[]
}
if (values.apb) {
  // Query ids run from query-2219 in the order of queries.jsonl, four variations per query
  // set (checked: each group of four shares one product subcategory).
  const queries = readFileSync(join(values.apb, '..', 'queries', 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => (JSON.parse(l) as { id: string }).id)
  const rows: unknown[] = []
  for (const model of readdirSync(values.apb).sort()) {
    for (const file of readdirSync(join(values.apb, model)).sort()) {
      for (const line of readFileSync(join(values.apb, model, file), 'utf8').split('\n')) {
        if (!line.trim()) continue
        const r = JSON.parse(line) as ApbResponse
        const index = Math.floor((Number(r.query_id.split('-')[1]) - 2219) / 4)
        const set = queries[index]
        if (!set) throw new Error(`no query set for ${r.query_id}`)
        rows.push({
          set,
          model,
          run: r.run,
          queryId: r.query_id,
          text: r.response,
          recommended: [...new Set(r.products_mentioned.map((p) => p.brand).filter((b): b is string => typeof b === 'string' && b.trim() !== ''))],
        })
      }
    }
  }
  writeFileSync(join(values.out, 'ai-product-bench.jsonl'), lines(rows))
  console.log(`ai-product-bench.jsonl: ${rows.length} responses`)
}
