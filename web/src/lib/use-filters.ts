import { useMemo } from 'react'
import { useLocation } from './router'
import { intParam, parseFilters, todayUtc, type Filters } from './url-state'

/** The filters of the current URL. */
export function useFilters(): Filters {
  const { search } = useLocation()
  return useMemo(() => parseFilters(search, todayUtc()), [search])
}

/** A numbered page of the current URL (`page` by default). */
export function usePage(param = 'page'): number {
  const { search } = useLocation()
  return intParam(search, param, 1)
}
