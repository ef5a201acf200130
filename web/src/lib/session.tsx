// The signed-in key: kept in sessionStorage (gone when the tab closes), never in the URL
// or in localStorage. `/#key=…` signs in and the fragment is removed at once.
import { createContext, useContext } from 'react'
import { useQuery, type QueryKey, type UseQueryResult } from '@tanstack/react-query'
import { apiGet, type ApiError } from './api'

export const STORAGE_KEY = 'beacon.apiKey'

export interface Session {
  key: string
  signOut(message?: string): void
}

export const SessionContext = createContext<Session | null>(null)

export function useSession(): Session {
  const session = useContext(SessionContext)
  if (!session) throw new Error('useSession outside the signed-in app')
  return session
}

/** GET a route with the session's key; the key is part of the cache key so sessions never share data. */
export function useApi<T>(
  path: string | null,
  params?: URLSearchParams,
  options: { refetchInterval?: number | false | ((data: T | undefined) => number | false) } = {},
): UseQueryResult<T, ApiError> {
  const { key } = useSession()
  const queryKey: QueryKey = [key.slice(-8), path, params?.toString() ?? '']
  return useQuery<T, ApiError>({
    queryKey,
    queryFn: () => apiGet<T>(key, path as string, params),
    enabled: path !== null,
    refetchInterval:
      typeof options.refetchInterval === 'function' ? (query) => (options.refetchInterval as (data: T | undefined) => number | false)(query.state.data) : options.refetchInterval,
  })
}
