// Product-review words that wink-nlp's lexicon (AFINN-style, general English) scores as
// neutral although answers comparing products use them as verdicts: "pricey", "slow",
// "clunky", "easier", "cheaper". Consulted only for tokens wink gives no score, so wink
// stays the source of sentiment and this list only fills its gaps. Values follow wink's
// scale (its "good" is 0.78, "bad" -0.6, "limited" -0.2). Written by hand for this
// project (MIT, like the rest of the code); review it like code: a word belongs here only
// if its product-review sense is clearly positive or negative.
export const REVIEW_LEXICON: ReadonlyMap<string, number> = new Map([
  // ease and speed
  ['easier', 0.4],
  ['easiest', 0.5],
  ['simple', 0.3],
  ['simpler', 0.3],
  ['simplest', 0.3],
  ['intuitive', 0.4],
  ['user-friendly', 0.5],
  ['friendly', 0.3],
  ['friendlier', 0.3],
  ['fast', 0.4],
  ['faster', 0.4],
  ['fastest', 0.5],
  ['quick', 0.3],
  ['quicker', 0.3],
  ['snappy', 0.4],
  ['smooth', 0.4],
  ['seamless', 0.5],
  ['seamlessly', 0.5],
  ['effortless', 0.5],
  ['stable', 0.3],
  ['flexible', 0.3],
  ['versatile', 0.4],
  ['lightweight', 0.3],
  ['comfortable', 0.4],
  ['gentle', 0.3],
  ['well-designed', 0.5],
  ['delightful', 0.7],
  // price
  ['cheap', 0.3],
  ['cheaper', 0.4],
  ['cheapest', 0.4],
  ['inexpensive', 0.4],
  ['expensive', -0.4],
  ['pricey', -0.4],
  ['pricier', -0.4],
  ['overpriced', -0.6],
  ['steep', -0.3],
  // quality problems
  ['slow', -0.4],
  ['slower', -0.4],
  ['sluggish', -0.5],
  ['laggy', -0.5],
  ['clunky', -0.5],
  ['buggy', -0.6],
  ['bugs', -0.4],
  ['glitchy', -0.5],
  ['crashes', -0.5],
  ['unstable', -0.5],
  ['outdated', -0.4],
  ['dated', -0.3],
  ['complicated', -0.4],
  ['convoluted', -0.5],
  ['cluttered', -0.4],
  ['overwhelming', -0.4],
  ['unintuitive', -0.5],
  ['inconsistent', -0.4],
  ['harder', -0.3],
  ['lacks', -0.3],
  ['lacking', -0.4],
  ['breach', -0.5],
  ['downtime', -0.4],
  ['greasy', -0.4],
  ['irritate', -0.4],
  ['hassle', -0.4],
  ['drawback', -0.3],
  ['drawbacks', -0.3],
  ['downside', -0.3],
  ['downsides', -0.3],
])

/**
 * Words wink-nlp scores that are neutral when answers describe products: "support" is
 * mostly the noun (customer support, "supports SSO"), not approval.
 */
export const NEUTRAL_IN_REVIEWS: ReadonlySet<string> = new Set(['support', 'supports', 'supported'])

/** Score of "too <word>": excess is a complaint ("too basic", "too soft", "too simple"). */
export const EXCESS_SCORE = -0.4
