import { v7 } from 'uuid'

/** Time-ordered UUIDs (v7) keep btree inserts local and sort by creation. */
export const newId = (): string => v7()
