// Workspace limits on what brand matching has to search for. They keep the work of every
// ingest, re-analysis and discovery bounded whatever a workspace configures, and they are
// part of the write schemas, so OpenAPI shows them and a request over them gets a 400
// that names the limit.
export const MAX_BRANDS_PER_WORKSPACE = 500
export const MAX_ALIASES_PER_BRAND = 50
/** a brand name or one alias, in characters */
export const MAX_TERM_LENGTH = 200
