// Closed-class words that shape a sentence: they end clauses, turn them around or compare.
// Grammar, not sentiment, so they live here rather than in the domain lexicon; sentence
// scoring (negation scope) and clause attribution both read them.

/** Punctuation that ends a clause when it stands apart from words (not inside "T-Mobile"). */
export const CLAUSE_PUNCTUATION: ReadonlySet<string> = new Set([',', ';', ':', '—', '–', '-', '(', ')', '|', '…', '...', '/'])
/** Conjunctions and adverbs that open a contrasting or conceding clause. */
export const CONTRAST: ReadonlySet<string> = new Set([
  'but',
  'however',
  'whereas',
  'while',
  'whilst',
  'although',
  'though',
  'yet',
  'except',
  'meanwhile',
  'nevertheless',
  'nonetheless',
])
/** After these the earlier statement about the same subject weighs half, the new one 1.5× (VADER's "but" rule). */
export const SHIFT: ReadonlySet<string> = new Set(['but', 'however', 'yet', 'nevertheless', 'nonetheless'])
/** Words that introduce what a statement is compared against. */
export const FOIL: ReadonlySet<string> = new Set(['than', 'unlike', 'versus', 'vs', 'vs.', 'compared', 'over'])
/** Relative pronouns: the clause they open describes the noun phrase just before them. */
export const RELATIVE: ReadonlySet<string> = new Set(['which', 'who', 'whose', 'that', 'where'])
export const NEGATION: ReadonlySet<string> = new Set(['not', "n't", 'n’t', 'no', 'never', 'neither', 'nor', 'without', 'cannot', 'none', 'nothing', 'nowhere', 'hardly', 'barely'])
/**
 * A contraction written without its apostrophe ("didnt", "dont", "wasnt", common in
 * reviews): wink splits it into the verb and "nt" but does not negate what follows, so
 * "nt" after an auxiliary negates on its own (within the same reach and clause as the others).
 */
export const BARE_NEGATION: ReadonlySet<string> = new Set(['nt'])
/** Possessive determiners: "its pricing" is an aspect of whatever "it" is. */
export const POSSESSIVE: ReadonlySet<string> = new Set(['its', 'their', 'his', 'her'])
/** The writer's or reader's: "our waiter", "my order" start a phrase but point back to nothing. */
export const PERSONAL_POSSESSIVE: ReadonlySet<string> = new Set(['our', 'my', 'your'])
/** Pronouns that continue the current subject. */
export const ANAPHOR: ReadonlySet<string> = new Set(['it', 'they', 'this', 'these', 'those', 'he', 'she', 'them', 'itself', 'themselves', 'one'])

/** Subordinators and coordinators that open a clause of their own. */
export const CLAUSE_OPENERS: ReadonlySet<string> = new Set(['because', 'since', 'so', 'when', 'until', 'once'])
/** Conditions: what they say is hypothetical ("if something goes wrong"), nobody's verdict. */
export const CONDITIONAL: ReadonlySet<string> = new Set(['if', 'unless', 'whether'])

/** Whether a token ends a negation's scope (clause punctuation, contrast, comparison or a clause opener). */
export function isScopeBreak(word: string): boolean {
  return CLAUSE_PUNCTUATION.has(word) || CONTRAST.has(word) || FOIL.has(word) || CLAUSE_OPENERS.has(word) || CONDITIONAL.has(word)
}

export function isBareNegationCue(word: string): boolean {
  return BARE_NEGATION.has(word)
}

export function isNegationCue(word: string): boolean {
  return NEGATION.has(word)
}
