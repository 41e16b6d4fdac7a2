import { z } from 'zod'

/**
 * The answers of every endpoint as zod schemas: the source of the OpenAPI document's response
 * schemas (scripts/build-openapi.ts). The endpoints build their answers with plain objects; the
 * end-to-end OpenAPI test checks real answers against these, so a change to an answer that is
 * not made here fails a test. Objects are strict: an undocumented field is drift too. One file
 * per part of the service; every answer is exported from here by its name.
 */

export * from './recordAnswers.js'
export * from './restockAnswers.js'
export * from './searchAnswers.js'
export * from './complianceAnswers.js'
export * from './stockAnswers.js'
export * from './overviewAnswers.js'
export * from './orderAnswers.js'
export * from './lineAnswers.js'

export const openApiAnswer = z
  .looseObject({ openapi: z.string() })
  .meta({ description: 'This document.' })
