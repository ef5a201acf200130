// Type-level check (run by `tsc -p web/tsconfig.json`, never bundled): every alias in api.ts
// resolves to a real shape. A route renamed or a status code changed would otherwise turn an
// alias into `never` silently, and property access on `never` type-checks.
import type * as A from './api'

type Resolved<T> = [T] extends [never] ? false : true
type All<T extends boolean[]> = T[number] extends true ? true : false

export const aliasesResolve: All<
  [
    Resolved<A.FilterValues>,
    Resolved<A.Pagination>,
    Resolved<A.Dashboard>,
    Resolved<A.BrandMetrics>,
    Resolved<A.Brand>,
    Resolved<A.BrandDetail>,
    Resolved<A.PeriodMetrics>,
    Resolved<A.Interval>,
    Resolved<A.ChangeTest>,
    Resolved<A.PromptRow>,
    Resolved<A.PromptDetail>,
    Resolved<A.Source>,
    Resolved<A.UrlRow>,
    Resolved<A.ResponsePreview>,
    Resolved<A.ResponseDetail>,
    Resolved<A.AioMetrics>,
    Resolved<A.ExportStatistics>,
    Resolved<A.Job>,
    Resolved<A.CollectionTarget>,
    Resolved<A.CollectionRun>,
    Resolved<A.Credential>,
    Resolved<A.Webhook>,
  ]
> = true
