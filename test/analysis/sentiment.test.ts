import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { meanSentiment, scoreSentences, sentenceSentiment, splitSentences, textSentiment } from '../../src/analysis/sentiment.js'

describe('splitSentences', () => {
  it('splits prose into sentences with offsets into the original text', () => {
    const text = 'Notion is flexible. Asana is structured!  Which one? Both.'
    const sentences = splitSentences(text)
    expect(sentences.map((s) => s.text)).toEqual(['Notion is flexible.', 'Asana is structured!', 'Which one?', 'Both.'])
    for (const s of sentences) expect(text.slice(s.start, s.end)).toBe(s.text)
  })

  it('makes each markdown line its own sentence, without the bullet marker', () => {
    const text = '## Top tools\n\n- Notion is great\n- Asana is slow\n1. First pick\n2) Second pick\n> Quoted line\n\nA paragraph. Two sentences.'
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      'Top tools',
      'Notion is great',
      'Asana is slow',
      'First pick',
      'Second pick',
      'Quoted line',
      'A paragraph.',
      'Two sentences.',
    ])
  })

  it('handles Windows line endings and Unicode line separators', () => {
    expect(splitSentences('one line\r\nsecond line\u2028third line').map((s) => s.text)).toEqual(['one line', 'second line', 'third line'])
  })

  it('keeps abbreviations inside a sentence', () => {
    expect(splitSentences('Dr. Smith joined Acme Inc. in 2020. He stayed.').map((s) => s.text)).toEqual(['Dr. Smith joined Acme Inc. in 2020.', 'He stayed.'])
  })

  it('drops markup-only lines and returns nothing for blank text', () => {
    expect(splitSentences('---\n| --- | --- |\n* * *')).toEqual([])
    expect(splitSentences('')).toEqual([])
    expect(splitSentences(' \n\t\n ')).toEqual([])
  })

  it('keeps offsets right with emoji, CJK and odd whitespace', () => {
    const text = '  🚀 Launch day is great.\u00a0小米 is good.\tweird \u200b spacing  '
    for (const s of splitSentences(text)) expect(text.slice(s.start, s.end)).toBe(s.text)
  })

  it('returns sorted, non-overlapping, trimmed sentences that slice back to their text (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'Notion is great. ',
        'It is bad! ',
        'Why? ',
        '\n',
        '\n\n',
        '- ',
        '1. ',
        '## ',
        '---',
        '  ',
        '\u2028',
        '\r\n',
        'Dr. ',
        '😀',
        '小米',
        ':)',
        "can't ",
        'https://a.com/x. ',
      ),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 15 }), (pieces) => {
        const text = pieces.join('')
        let last = 0
        for (const s of scoreSentences(text)) {
          expect(s.start).toBeGreaterThanOrEqual(last)
          expect(s.end).toBeGreaterThan(s.start)
          expect(text.slice(s.start, s.end)).toBe(s.text)
          expect(s.text).toBe(s.text.trim())
          expect(s.sentiment).toBeGreaterThanOrEqual(-1)
          expect(s.sentiment).toBeLessThanOrEqual(1)
          last = s.end
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe('textSentiment', () => {
  it('scores clearly positive text above zero', () => {
    expect(textSentiment('This product is excellent. I love it and the support team is wonderful.')).toBeGreaterThan(0.3)
  })

  it('scores clearly negative text below zero', () => {
    expect(textSentiment('This is a terrible, awful product. I hate it.')).toBeLessThan(-0.3)
  })

  it('scores factual text as neutral', () => {
    expect(textSentiment('The meeting is on Tuesday at the main office.')).toBe(0)
  })

  it('handles negation', () => {
    expect(textSentiment('It is good.')).toBeGreaterThan(0)
    expect(textSentiment('It is not good.')).toBeLessThan(0)
  })

  it('reads low prices as praise and high prices as a complaint, and low or high alone as nothing', () => {
    expect(textSentiment('The price was low.')).toBeGreaterThan(0)
    expect(textSentiment('The price of the rooms is very high.')).toBeLessThan(0)
    expect(textSentiment('Great specs at a lower price.')).toBeGreaterThan(0)
    expect(textSentiment('The price is not low.')).toBeLessThan(0)
    expect(textSentiment('It has a high refresh rate and a low weight.')).toBe(0)
  })

  it('reads meaning to come back as a recommendation, and never coming back as a complaint', () => {
    expect(textSentiment('I will definitely be visiting this place again.')).toBeGreaterThan(0)
    expect(textSentiment('We would return to that place.')).toBeGreaterThan(0)
    expect(textSentiment('I will never fly with that airline again.')).toBeLessThan(0)
    expect(textSentiment("I won't be back.")).toBeLessThan(0)
    // without a modal it only tells what happened; sending something back is no visit
    expect(textSentiment('We went there again on Friday.')).toBe(0)
    expect(textSentiment('We would have to send it back.')).toBe(0)
  })

  it('scores the frequent misspellings of review words like the words, and review praise wink leaves neutral', () => {
    expect(textSentiment('The breakfast is delicius.')).toBeCloseTo(textSentiment('The breakfast is delicious.')!, 1)
    expect(textSentiment('The room was confortable.')).toBeGreaterThan(0)
    expect(textSentiment('I was disapointed.')).toBeLessThan(0)
    expect(textSentiment('Its shape is fancy and the decor unique.')).toBeGreaterThan(0)
    expect(textSentiment('The manager politely explained.')).toBeGreaterThan(0)
    expect(textSentiment('A relaxing stay.')).toBeGreaterThan(0)
    expect(textSentiment('The app freezes.')).toBeLessThan(0)
    expect(textSentiment('The roof leaks.')).toBeLessThan(0)
  })

  it('leaves neutral the words wink scores that say nothing in reviews', () => {
    // a concession connective is no complaint: the verdict after it stands alone
    expect(textSentiment('Despite the price, it is great.')).toBeCloseTo(textSentiment('It is great.')!, 6)
    expect(textSentiment('We decided to go there.')).toBe(0)
    expect(textSentiment('It is sold online.')).toBe(0)
    expect(textSentiment('I went there with a friend and ordered the beef.')).toBe(0)
    expect(textSentiment('The service was aweful.')).toBeLessThan(0)
  })

  it('reads a price verdict of an adverb and "priced", and "over priced" written apart', () => {
    expect(textSentiment('The plans are fairly priced.')).toBeGreaterThan(0)
    expect(textSentiment('The plans are competitively priced.')).toBeGreaterThan(0)
    expect(textSentiment('The plans are over priced.')).toBeLessThan(0)
    // a degree alone is no verdict
    expect(textSentiment('The plans are fairly new.')).toBe(0)
  })

  it('scores an idiom of several words as a whole, and its words alone not at all', () => {
    expect(textSentiment('The decor was out of date.')).toBeLessThan(0)
    expect(textSentiment('I was blown away by the food.')).toBeGreaterThan(0)
    expect(textSentiment('The dessert was out of this world.')).toBeGreaterThan(0)
    expect(textSentiment('Our food took forever.')).toBeLessThan(0)
    expect(textSentiment('Long waiting time.')).toBeLessThan(0)
    // negation reaches the idiom like any scored word
    expect(textSentiment('The decor was not out of date.')).toBeGreaterThan(0)
    // the words out of their idiom say nothing
    expect(textSentiment('We went out of the city on a date.')).toBe(0)
    expect(textSentiment('I have used it for a long time.')).toBe(0)
  })

  it('reads the idioms of a shortcoming as complaints, though their words praise', () => {
    expect(textSentiment('Good app, but the sync could be better.')).toBeLessThan(textSentiment('Good app.')!)
    expect(textSentiment('The battery could be better.')).toBeLessThan(0)
    expect(textSentiment('The interface needs improvement.')).toBeLessThan(0)
    expect(textSentiment('The service leaves a lot to be desired.')).toBeLessThan(0)
    // negated it is the best there is (wink negated "better" into a complaint)
    expect(textSentiment('The service could not be better.')).toBeGreaterThan(0)
    expect(textSentiment("The service couldn't be better.")).toBeGreaterThan(0)
    expect(textSentiment('The staff went above and beyond.')).toBeGreaterThan(0)
  })

  it('reads a negated "have" with nothing said after it as something missing', () => {
    expect(textSentiment('The library does not have air conditioning.')).toBeLessThan(0)
    expect(textSentiment("It doesn't have much range.")).toBeLessThan(0)
    // already a verdict by its own words, or an amount bounded: nothing missing
    expect(textSentiment("I didn't have any problems with it.")).toBeGreaterThan(0)
    expect(textSentiment("I've never had more than a ten minute wait.")).toBe(0)
    expect(textSentiment('It has air conditioning.')).toBe(0)
  })

  it("keeps a negation's scope across a hyphen inside a word", () => {
    // "not-to-shabby": the hyphens join the words (a spaced dash still ends the scope).
    expect(textSentiment('The desserts are not-to-shabby.')).toBeGreaterThan(0)
  })

  it('negates after a contraction written without its apostrophe', () => {
    // wink splits "wasnt" into "was" + "nt" and flags nothing after it.
    expect(textSentiment('The food wasnt good.')).toBeLessThan(0)
    expect(textSentiment('The bartender didnt give me a detailed bill.')).toBeLessThan(0)
    // the same reach and clause as the other cues
    expect(textSentiment('The room wasnt ready, but the staff were great.')).toBeGreaterThan(0)
  })

  it('reads the review words of the domain lexicon that wink leaves neutral (issue 30)', () => {
    // size, temperature, noise and order complaints; informal praise
    expect(textSentiment('The bathroom is extremely small.')).toBeLessThan(0)
    expect(textSentiment('All the food was cold.')).toBeLessThan(0)
    expect(textSentiment('The music was loud.')).toBeLessThan(0)
    expect(textSentiment('The place was not very organized.')).toBeLessThan(0)
    expect(textSentiment('The food is delish.')).toBeGreaterThan(0)
    expect(textSentiment('Stellar battery life.')).toBeGreaterThan(0)
    expect(textSentiment('The hostess was snooty and dismissive.')).toBeLessThan(0)
    // words wink scores that are no verdict in reviews
    expect(textSentiment('They kept us waiting at the bar.')).toBe(0)
    expect(textSentiment('We met in the hotel lobby.')).toBe(0)
  })

  it('is null for empty or blank text', () => {
    expect(textSentiment('')).toBeNull()
    expect(textSentiment('   \n\t  ')).toBeNull()
  })

  it('is 0 for text with nothing to score', () => {
    expect(textSentiment('---')).toBe(0)
  })

  it('counts emoji and emoticons', () => {
    expect(textSentiment('😀')).toBeGreaterThan(0)
    expect(textSentiment(':)')).toBeGreaterThan(0)
  })

  it('is the mean of its sentences, so mixed lines do not cancel inside one sentence', () => {
    const text = '- Notion is great\n- Asana is terrible\n- Trello exists'
    const sentences = scoreSentences(text)
    expect(sentences.map((s) => Math.sign(s.sentiment))).toEqual([1, -1, 0])
    expect(textSentiment(text)).toBeCloseTo(meanSentiment(sentences), 12)
  })

  it('stays within [-1, 1] (property)', () => {
    const word = fc.constantFrom('good', 'bad', 'not', 'great', 'awful', 'love', 'hate', 'very', 'the', '!', '.', '\n', '😀', '😡')
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 30 }), (words) => {
        const text = words.join(' ')
        const score = textSentiment(text)
        if (text.trim() === '') {
          expect(score).toBeNull()
        } else {
          expect(score).toBeGreaterThanOrEqual(-1)
          expect(score).toBeLessThanOrEqual(1)
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('sentenceSentiment', () => {
  it('scores a single sentence', () => {
    expect(sentenceSentiment('I love this tool.')).toBeGreaterThan(0)
    expect(sentenceSentiment('I hate this tool.')).toBeLessThan(0)
    expect(sentenceSentiment('This tool exists.')).toBe(0)
  })

  it('is 0, not null, for empty input', () => {
    expect(sentenceSentiment('')).toBe(0)
  })
})

describe('meanSentiment', () => {
  it('is 0 for no sentences', () => {
    expect(meanSentiment([])).toBe(0)
  })
})
