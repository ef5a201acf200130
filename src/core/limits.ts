// Workspace limits on what brand matching has to search for. They keep the work of every
// ingest, re-analysis and discovery bounded whatever a workspace configures, and they are
// part of the write schemas, so OpenAPI shows them and a request over them gets a 400
// that names the limit.
export const MAX_BRANDS_PER_WORKSPACE = 500
// 50 aliases: room for product and service names besides spellings and languages (the most
// any of the 15,129 brands of OpenStreetMap's name-suggestion-index has is 29 names and
// match names, all languages counted).
export const MAX_ALIASES_PER_BRAND = 50
/**
 * A brand name or one alias, in characters. 100, not 200 (issue 33): in the
 * name-suggestion-index the longest of 42,112 brand names and aliases is 78 code points
 * (99.9% are at most 49); halving it halves the worst matcher (34 MB instead of 74 MB).
 */
export const MAX_TERM_LENGTH = 100
