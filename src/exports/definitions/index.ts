import type { ExportDefinition } from '../export-types.js'
import { chatResponsesExport } from './chat-responses.js'
import { dashboardGraphExport } from './dashboard-graph.js'
import { promptsMentionsExport } from './prompts-mentions.js'
import { sourcesCitationsExport } from './sources-citations.js'

/** The four export types of spec 4.2, in the spec's order. */
export const EXPORT_DEFINITIONS: readonly ExportDefinition[] = [chatResponsesExport, sourcesCitationsExport, dashboardGraphExport, promptsMentionsExport]
