/**
 * Static catalogue for the demo workspace: a fictional project-management /
 * team-collaboration software market. All brand names and domains are made up
 * for the demo; they are not meant to refer to real companies.
 */
import { PROVIDERS, type Provider } from '../core/providers.js'

export type DemoProvider = Provider

export { PROVIDERS }

export type DemoTag = 'comparison' | 'pricing' | 'enterprise' | 'smb' | 'integrations' | 'alternatives' | 'reviews' | 'how-to'

export const TAGS: readonly DemoTag[] = ['comparison', 'pricing', 'enterprise', 'smb', 'integrations', 'alternatives', 'reviews', 'how-to']

export interface BrandProfile {
  key: string
  name: string
  domain: string
  aliases: string[]
  isPrimary: boolean
  /** Probability of being mentioned in a branded answer at the start / end of the window. */
  mentionStart: number
  mentionEnd: number
  /** Share of praise sentences at the start / end of the window (rest: neutral or criticism). */
  praiseStart: number
  praiseEnd: number
  /** Additive mention-probability adjustments per prompt tag. */
  tagBoost: Partial<Record<DemoTag, number>>
  /** Additive mention-probability adjustments per provider. */
  providerBias: Partial<Record<DemoProvider, number>>
  strengths: string[]
  weaknesses: string[]
  bestFor: string[]
  /** Starting price in USD per user per month (0 = free plan available). */
  price: number
  /** Brand-site paths used for links and citations. */
  pages: { path: string; title: string }[]
}

const COMMON_PAGES = [
  { path: '/', title: '{name} – Project management for teams that ship' },
  { path: '/pricing', title: 'Pricing | {name}' },
  { path: '/features', title: 'Features | {name}' },
  { path: '/integrations', title: 'Integrations | {name}' },
  { path: '/customers', title: 'Customer stories | {name}' },
]

export const BRAND_PROFILES: readonly BrandProfile[] = [
  {
    key: 'tasklane',
    name: 'Tasklane',
    domain: 'tasklane.io',
    aliases: ['Tasklane HQ'],
    isPrimary: true,
    mentionStart: 0.47,
    mentionEnd: 0.62,
    praiseStart: 0.6,
    praiseEnd: 0.72,
    tagBoost: { smb: 0.08, 'how-to': 0.02, enterprise: -0.08 },
    providerBias: { openai: 0.04, perplexity: 0.03, anthropic: -0.04, google: -0.02 },
    strengths: ['clean Kanban and timeline views', 'fast, keyboard-friendly interface', 'client portals', 'built-in time tracking'],
    weaknesses: ['basic reporting on the lower tiers', 'limited offline support'],
    bestFor: ['small agencies', 'growing product teams', 'client-facing teams'],
    price: 9,
    pages: [
      ...COMMON_PAGES,
      { path: '/templates/client-onboarding', title: 'Client onboarding template | {name}' },
      { path: '/blog/kanban-for-agencies', title: 'Kanban for agencies: a practical guide' },
    ],
  },
  {
    key: 'kanbrio',
    name: 'Kanbrio',
    domain: 'kanbrio.com',
    aliases: ['Kanbrio Boards'],
    isPrimary: false,
    mentionStart: 0.68,
    mentionEnd: 0.6,
    praiseStart: 0.58,
    praiseEnd: 0.52,
    tagBoost: { comparison: 0.05, reviews: 0.05 },
    providerBias: { google: 0.05, anthropic: 0.02 },
    strengths: ['flexible boards', 'huge template library', 'polished mobile apps'],
    weaknesses: ['confusing pricing tiers', 'notification overload', 'slow performance on large boards'],
    bestFor: ['cross-functional teams', 'marketing teams'],
    price: 12,
    pages: [...COMMON_PAGES, { path: '/templates', title: 'Template gallery | {name}' }, { path: '/business', title: '{name} Business plan' }],
  },
  {
    key: 'sprintwell',
    name: 'Sprintwell',
    domain: 'sprintwell.app',
    aliases: ['Sprintwell Cloud'],
    isPrimary: false,
    mentionStart: 0.5,
    mentionEnd: 0.38,
    praiseStart: 0.5,
    praiseEnd: 0.34,
    tagBoost: { integrations: 0.08, 'how-to': 0.08, smb: -0.06 },
    providerBias: { anthropic: 0.05, openai: -0.02 },
    strengths: ['deep scrum and sprint tooling', 'burndown and velocity charts', 'tight GitHub and GitLab integration'],
    weaknesses: ['cluttered interface', 'confusing sprint configuration', 'slow page loads'],
    bestFor: ['software engineering teams', 'agile teams'],
    price: 10,
    pages: [...COMMON_PAGES, { path: '/docs/sprint-planning', title: 'Sprint planning guide | {name} Docs' }, { path: '/changelog', title: 'Changelog | {name}' }],
  },
  {
    key: 'vantro',
    name: 'Vantro',
    domain: 'vantro.io',
    aliases: ['Vantro HQ'],
    isPrimary: false,
    mentionStart: 0.32,
    mentionEnd: 0.34,
    praiseStart: 0.55,
    praiseEnd: 0.55,
    tagBoost: { enterprise: 0.3, smb: -0.15, pricing: -0.05 },
    providerBias: { google: 0.03, perplexity: -0.03 },
    strengths: ['enterprise-grade security controls', 'portfolio dashboards', 'SSO and SCIM provisioning'],
    weaknesses: ['expensive enterprise contracts', 'long implementation times'],
    bestFor: ['large enterprises', 'PMOs'],
    price: 24,
    pages: [...COMMON_PAGES, { path: '/enterprise', title: '{name} Enterprise' }, { path: '/security', title: 'Security and compliance | {name}' }],
  },
  {
    key: 'vantrova',
    name: 'Vantrova',
    domain: 'vantrova.com',
    aliases: ['Vantrova Suite'],
    isPrimary: false,
    mentionStart: 0.12,
    mentionEnd: 0.27,
    praiseStart: 0.66,
    praiseEnd: 0.7,
    tagBoost: { enterprise: 0.1, alternatives: 0.06 },
    providerBias: { perplexity: 0.05, openai: -0.02 },
    strengths: ['AI-assisted planning', 'resource management', 'workload forecasting'],
    weaknesses: ['small integration marketplace', 'occasional sync bugs'],
    bestFor: ['mid-size companies', 'operations teams'],
    price: 15,
    pages: [...COMMON_PAGES, { path: '/resource-management', title: 'Resource management | {name}' }],
  },
  {
    key: 'hivepath',
    name: 'Hivepath',
    domain: 'hivepath.co',
    aliases: ['Hivepath Teams'],
    isPrimary: false,
    mentionStart: 0.3,
    mentionEnd: 0.31,
    praiseStart: 0.5,
    praiseEnd: 0.5,
    tagBoost: { integrations: 0.25, smb: 0.03 },
    providerBias: { openai: 0.03, google: -0.02 },
    strengths: ['docs and wikis next to tasks', 'real-time collaboration', 'library of 200+ integrations'],
    weaknesses: ['overwhelming number of features', 'clunky permissions model'],
    bestFor: ['remote teams', 'knowledge-heavy teams'],
    price: 8,
    pages: [...COMMON_PAGES, { path: '/apps', title: 'App directory | {name}' }],
  },
  {
    key: 'boardnook',
    name: 'Boardnook',
    domain: 'boardnook.com',
    aliases: ['Boardnook Pro'],
    isPrimary: false,
    mentionStart: 0.26,
    mentionEnd: 0.22,
    praiseStart: 0.6,
    praiseEnd: 0.6,
    tagBoost: { pricing: 0.15, smb: 0.1, enterprise: -0.12 },
    providerBias: { anthropic: 0.03 },
    strengths: ['generous free plan', 'simple drag-and-drop boards'],
    weaknesses: ['limited automation', 'basic reporting'],
    bestFor: ['freelancers', 'nonprofits'],
    price: 5,
    pages: [...COMMON_PAGES, { path: '/nonprofits', title: '{name} for nonprofits' }],
  },
  {
    key: 'flowmint',
    name: 'Flowmint',
    domain: 'flowmint.app',
    aliases: ['Flowmint Projects'],
    isPrimary: false,
    mentionStart: 0.17,
    mentionEnd: 0.24,
    praiseStart: 0.7,
    praiseEnd: 0.72,
    tagBoost: { smb: 0.1, integrations: 0.05, enterprise: -0.08 },
    providerBias: { perplexity: 0.03 },
    strengths: ['no-code automations', 'calm, uncluttered design'],
    weaknesses: ['missing Gantt charts', 'limited admin controls'],
    bestFor: ['creative teams', 'early-stage startups'],
    price: 7,
    pages: [...COMMON_PAGES, { path: '/automations', title: 'Automations | {name}' }],
  },
  {
    key: 'planwright',
    name: 'Planwright',
    domain: 'planwright.io',
    aliases: ['Planwright Gantt'],
    isPrimary: false,
    mentionStart: 0.15,
    mentionEnd: 0.1,
    praiseStart: 0.32,
    praiseEnd: 0.26,
    tagBoost: { enterprise: 0.05, smb: -0.05 },
    providerBias: { google: 0.02 },
    strengths: ['detailed Gantt charts', 'critical path analysis'],
    weaknesses: ['outdated interface', 'frequent outages', 'unresponsive customer support'],
    bestFor: ['construction projects', 'traditional waterfall planning'],
    price: 11,
    pages: [...COMMON_PAGES, { path: '/gantt', title: 'Gantt charts | {name}' }],
  },
]

/**
 * Tools the answers name that the demo workspace does not track, as real answers name
 * competitors nobody configured: competitor discovery (POST /api/v1/brands/discover) finds
 * them on a fresh demo. `rate`: share of answers that list brands which also name this one.
 */
export interface UnlistedBrand {
  name: string
  rate: number
  notes: string[]
}

export const UNLISTED_BRANDS: readonly UnlistedBrand[] = [
  { name: 'Cadencia', rate: 0.06, notes: ['resource planning across several teams', 'capacity views for agencies', 'a clean weekly planner'] },
  { name: 'Trackory', rate: 0.045, notes: ['time tracking built into every task', 'simple client billing', 'timesheets that managers actually use'] },
  { name: 'Plotwise', rate: 0.035, notes: ['visual roadmaps', 'dependency mapping', 'portfolio timelines'] },
  { name: 'Orbitask', rate: 0.025, notes: ['lightweight task lists for remote teams', 'async standups', 'a generous free tier'] },
]

export interface PromptDef {
  key: string
  text: string
  tags: DemoTag[]
  /** Brands named in the prompt: mentioned in nearly every branded answer. */
  named?: string[]
  /** Extra mention-probability adjustments for this prompt. */
  boost?: Record<string, number>
}

export const PROMPT_DEFS: readonly PromptDef[] = [
  { key: 'p01', text: 'What is the best project management software for small teams?', tags: ['smb', 'comparison'] },
  { key: 'p02', text: 'Best project management tools for startups in 2025', tags: ['smb', 'reviews'] },
  { key: 'p03', text: 'Tasklane vs Kanbrio: which is better for a marketing agency?', tags: ['comparison'], named: ['tasklane', 'kanbrio'] },
  { key: 'p04', text: 'What are the best alternatives to Kanbrio?', tags: ['alternatives'], named: ['kanbrio'] },
  { key: 'p05', text: 'How much does Tasklane cost per user?', tags: ['pricing'], named: ['tasklane'] },
  { key: 'p06', text: 'Which project management tools integrate with Slack and GitHub?', tags: ['integrations'] },
  { key: 'p07', text: 'Best enterprise work management platform with SSO and audit logs', tags: ['enterprise'] },
  { key: 'p08', text: 'How do I set up a Kanban board for a remote team?', tags: ['how-to'] },
  { key: 'p09', text: 'Cheapest project management software with Gantt charts', tags: ['pricing', 'smb'], boost: { planwright: 0.3 } },
  { key: 'p10', text: 'Is Sprintwell worth it for agile software teams?', tags: ['reviews'], named: ['sprintwell'] },
  { key: 'p11', text: 'Top-rated team collaboration apps according to user reviews', tags: ['reviews'] },
  { key: 'p12', text: "Vantro vs Vantrova: what's the difference?", tags: ['comparison', 'enterprise'], named: ['vantro', 'vantrova'] },
  { key: 'p13', text: 'Best free project management tool for freelancers', tags: ['smb', 'pricing'], boost: { boardnook: 0.15 } },
  { key: 'p14', text: 'Which task management apps have the best Jira integration?', tags: ['integrations', 'comparison'] },
  { key: 'p15', text: 'How to migrate from spreadsheets to a project management tool', tags: ['how-to', 'smb'] },
  { key: 'p16', text: 'Best project management software for construction companies', tags: ['comparison'], boost: { planwright: 0.35 } },
  { key: 'p17', text: 'Project portfolio management tools for large enterprises', tags: ['enterprise'] },
  { key: 'p18', text: 'What are good alternatives to Sprintwell for scrum teams?', tags: ['alternatives'], named: ['sprintwell'] },
  { key: 'p19', text: 'Hivepath reviews: pros and cons', tags: ['reviews'], named: ['hivepath'] },
  { key: 'p20', text: 'Which project management tool has the best mobile app?', tags: ['reviews', 'comparison'], boost: { kanbrio: 0.1 } },
  { key: 'p21', text: 'Project management software with time tracking and invoicing', tags: ['smb', 'integrations'], boost: { tasklane: 0.1 } },
  { key: 'p22', text: 'How to run sprint planning in a project management tool', tags: ['how-to'], boost: { sprintwell: 0.2 } },
  { key: 'p23', text: 'Best HIPAA compliant project management software', tags: ['enterprise'] },
  { key: 'p24', text: 'Compare pricing of Tasklane, Boardnook and Flowmint', tags: ['pricing', 'comparison'], named: ['tasklane', 'boardnook', 'flowmint'] },
  { key: 'p25', text: 'Tools like Tasklane for managing client projects', tags: ['alternatives', 'smb'], named: ['tasklane'] },
  { key: 'p26', text: 'Which collaboration tools connect to Google Drive and Microsoft Teams?', tags: ['integrations'] },
  { key: 'p27', text: 'Best Gantt chart software for project managers', tags: ['comparison'], boost: { planwright: 0.35, flowmint: -0.1 } },
  { key: 'p28', text: 'How do I automate recurring tasks for my team?', tags: ['how-to', 'integrations'], boost: { flowmint: 0.15 } },
  { key: 'p29', text: 'Enterprise project management software with on-premise deployment', tags: ['enterprise'] },
  { key: 'p30', text: 'Is Planwright still a good choice in 2025?', tags: ['reviews'], named: ['planwright'] },
  { key: 'p31', text: 'What project management software do nonprofits use?', tags: ['smb', 'pricing'], boost: { boardnook: 0.15 } },
  { key: 'p32', text: 'Best work management platform for product teams', tags: ['comparison'] },
  { key: 'p33', text: 'Alternatives to Vantro for managing a project portfolio', tags: ['alternatives', 'enterprise'], named: ['vantro'] },
  { key: 'p34', text: 'Which project management apps have an open API and webhooks?', tags: ['integrations'] },
  { key: 'p35', text: 'How to track OKRs in a project management tool', tags: ['how-to'] },
  { key: 'p36', text: 'Best project management software for remote teams', tags: ['smb', 'comparison'], boost: { hivepath: 0.15 } },
  { key: 'p37', text: 'Kanbrio pricing vs value: is the Business plan worth it?', tags: ['pricing', 'reviews'], named: ['kanbrio'] },
  { key: 'p38', text: 'Most secure team collaboration software for financial services', tags: ['enterprise'] },
  { key: 'p39', text: 'Easiest project management tool for non-technical teams', tags: ['smb', 'reviews'] },
  { key: 'p40', text: 'What do Reddit users recommend for project management?', tags: ['reviews', 'alternatives'] },
]

export interface ModelDef {
  id: string
  provider: DemoProvider
  name: string
  /** Relative frequency with which the model is sampled. */
  weight: number
}

export const MODEL_DEFS: readonly ModelDef[] = [
  { id: 'gpt-4o', provider: 'openai', name: 'GPT-4o', weight: 1.3 },
  { id: 'gpt-4o-mini', provider: 'openai', name: 'GPT-4o mini', weight: 0.9 },
  { id: 'claude-sonnet-4', provider: 'anthropic', name: 'Claude Sonnet 4', weight: 1.1 },
  { id: 'claude-haiku-4', provider: 'anthropic', name: 'Claude Haiku 4', weight: 0.8 },
  { id: 'gemini-2.5-pro', provider: 'google', name: 'Gemini 2.5 Pro', weight: 1.0 },
  { id: 'gemini-2.5-flash', provider: 'google', name: 'Gemini 2.5 Flash', weight: 1.0 },
  { id: 'sonar', provider: 'perplexity', name: 'Sonar', weight: 1.0 },
  { id: 'sonar-pro', provider: 'perplexity', name: 'Sonar Pro', weight: 0.9 },
]

export type SourceKind = 'reference' | 'forum' | 'news' | 'review' | 'institutional'

export interface SourceDef {
  kind: SourceKind
  url: string
  title: string
}

/** Third-party pages that AI answers cite. `{domain}` is replaced by a brand domain. */
export const SOURCE_DEFS: readonly SourceDef[] = [
  { kind: 'reference', url: 'https://en.wikipedia.org/wiki/Project_management_software', title: 'Project management software - Wikipedia' },
  { kind: 'reference', url: 'https://en.wikipedia.org/wiki/Kanban_(development)', title: 'Kanban (development) - Wikipedia' },
  { kind: 'reference', url: 'https://en.wikipedia.org/wiki/Gantt_chart', title: 'Gantt chart - Wikipedia' },
  { kind: 'reference', url: 'https://en.wikipedia.org/wiki/Scrum_(software_development)', title: 'Scrum (software development) - Wikipedia' },
  { kind: 'reference', url: 'https://en.wikipedia.org/wiki/Objectives_and_key_results', title: 'Objectives and key results - Wikipedia' },
  {
    kind: 'forum',
    url: 'https://www.reddit.com/r/projectmanagement/comments/1b7xk2q/what_pm_tool_does_your_team_actually_use/',
    title: 'What PM tool does your team actually use? : r/projectmanagement',
  },
  {
    kind: 'forum',
    url: 'https://www.reddit.com/r/projectmanagement/comments/1c3m9fa/best_tool_for_a_10_person_agency/',
    title: 'Best tool for a 10 person agency? : r/projectmanagement',
  },
  {
    kind: 'forum',
    url: 'https://www.reddit.com/r/agile/comments/18qz4wd/sprint_planning_tools_that_dont_get_in_the_way/',
    title: "Sprint planning tools that don't get in the way : r/agile",
  },
  {
    kind: 'forum',
    url: 'https://www.reddit.com/r/startups/comments/1a9d0tn/which_project_management_app_did_you_outgrow/',
    title: 'Which project management app did you outgrow? : r/startups',
  },
  {
    kind: 'forum',
    url: 'https://www.reddit.com/r/sysadmin/comments/1dk2p8v/self_hosted_or_saas_pm_tools_for_regulated_orgs/',
    title: 'Self hosted or SaaS PM tools for regulated orgs? : r/sysadmin',
  },
  { kind: 'forum', url: 'https://news.ycombinator.com/item?id=39012844', title: 'Ask HN: What do you use for project management in 2024? | Hacker News' },
  { kind: 'forum', url: 'https://news.ycombinator.com/item?id=40177351', title: 'Show HN: We replaced our PM tool with a text file | Hacker News' },
  {
    kind: 'forum',
    url: 'https://stackoverflow.com/questions/41825093/how-to-sync-issues-between-github-and-a-kanban-board',
    title: 'How to sync issues between GitHub and a Kanban board - Stack Overflow',
  },
  { kind: 'forum', url: 'https://stackoverflow.com/questions/52877130/webhook-payload-for-task-status-changes', title: 'Webhook payload for task status changes - Stack Overflow' },
  { kind: 'news', url: 'https://techcrunch.com/2025/02/11/project-management-startups-bet-on-ai-planning/', title: 'Project management startups bet on AI planning | TechCrunch' },
  {
    kind: 'news',
    url: 'https://techcrunch.com/2024/11/05/the-collaboration-software-market-is-consolidating/',
    title: 'The collaboration software market is consolidating | TechCrunch',
  },
  { kind: 'news', url: 'https://www.theverge.com/2025/1/22/work-apps-ai-features-roundup', title: 'Every work app is adding AI. Here is what actually helps | The Verge' },
  { kind: 'news', url: 'https://www.zdnet.com/article/best-project-management-software/', title: 'The best project management software: Expert tested | ZDNET' },
  { kind: 'review', url: 'https://www.g2.com/categories/project-management', title: 'Best Project Management Software: User Reviews from 2025 | G2' },
  { kind: 'review', url: 'https://www.g2.com/categories/team-collaboration', title: 'Best Team Collaboration Software | G2' },
  { kind: 'review', url: 'https://www.capterra.com/project-management-software/', title: 'Best Project Management Software 2025 | Capterra' },
  { kind: 'review', url: 'https://www.capterra.com/gantt-chart-software/', title: 'Best Gantt Chart Software | Capterra' },
  { kind: 'review', url: 'https://www.trustpilot.com/review/{domain}', title: '{name} Reviews | Read Customer Service Reviews of {domain}' },
  { kind: 'review', url: 'https://www.g2.com/products/{key}/reviews', title: '{name} Reviews 2025: Details, Pricing, & Features | G2' },
  { kind: 'review', url: 'https://www.capterra.com/p/{key}/reviews/', title: '{name} Reviews, Pricing & Features | Capterra' },
  { kind: 'institutional', url: 'https://digital.gov/resources/an-introduction-to-agile-project-management/', title: 'An introduction to agile project management | Digital.gov' },
  { kind: 'institutional', url: 'https://www.gsa.gov/technology/it-contract-vehicles-and-purchasing-programs', title: 'IT contract vehicles and purchasing programs | GSA' },
  {
    kind: 'institutional',
    url: 'https://www.hhs.gov/hipaa/for-professionals/security/guidance/cloud-computing/index.html',
    title: 'Guidance on HIPAA & Cloud Computing | HHS.gov',
  },
  {
    kind: 'institutional',
    url: 'https://extension.harvard.edu/blog/choosing-project-management-software/',
    title: 'Choosing project management software | Harvard Extension School',
  },
  {
    kind: 'institutional',
    url: 'https://www.cmu.edu/computing/services/teach-learn/tools/project-management.html',
    title: 'Project management tools - Computing Services - Carnegie Mellon University',
  },
]
