// The discovery corpus (test/fixtures/discovery) and its scoring, shared by the corpus and route tests.
import { readFileSync } from 'node:fs'

export interface Corpus {
  configured: { name: string; aliases: string[]; domain: string }[]
  unconfigured: string[]
  common_word_names: string[]
  providers: string[]
  answers: { id: string; created_at: string; content: string }[]
}

export const corpus = JSON.parse(readFileSync(new URL('../fixtures/discovery/email-marketing-answers.json', import.meta.url), 'utf8')) as Corpus

/** Case and accents ignored ("Zèstmail" is Zestmail), as discovery compares names. */
export const plain = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()

/** Answers naming `name` as a whole word: the ground truth's own count, independent of the extractor. */
export const answersNaming = (name: string) => corpus.answers.filter((a) => new RegExp(`(?<![\\p{L}\\p{N}])${plain(name)}(?![\\p{L}\\p{N}])`, 'u').test(plain(a.content))).length

export function precisionAndRecall(suggested: string[]) {
  const top = suggested.slice(0, 20)
  const truth = new Set(corpus.unconfigured.map((n) => n.toLowerCase()))
  const correct = top.filter((n) => truth.has(n.toLowerCase())).length
  const recurring = corpus.unconfigured.filter((n) => answersNaming(n) >= 3)
  const found = recurring.filter((n) => suggested.some((s) => s.toLowerCase() === n.toLowerCase()))
  return { precision: top.length ? correct / top.length : 0, recall: recurring.length ? found.length / recurring.length : 0, recurring, found, top }
}
