// The tools docs/agents-and-notifications.md names, written out here (not read from the code under test), so the
// MCP tests fail when one goes missing. start_collection_run needs write:data.
export const READ_TOOLS = [
  'get_filters',
  'get_dashboard',
  'list_brands',
  'get_brand',
  'list_prompts',
  'get_prompt',
  'list_sources',
  'list_urls',
  'list_responses',
  'get_response',
  'get_aio_metrics',
  'list_search_queries',
]
export const WRITE_TOOLS = ['start_collection_run']
