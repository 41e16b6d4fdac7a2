import { validate } from '@hyperjump/json-schema/openapi-3-1'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

type Json = Record<string, any>

/** Ajv for JSON Schema 2020-12 (OpenAPI 3.1's dialect), formats checked. */
function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false })
  addFormats.default(ajv)
  return ajv
}

/**
 * Errors of `document` against the official OpenAPI 3.1 schema with the base dialect (schemas
 * checked as JSON Schema 2020-12), by Hyperjump's validator, which implements `$dynamicRef`
 * that schema needs (Ajv does not fully). Empty when valid.
 */
export async function openApiDocumentErrors(document: Json): Promise<string[]> {
  const output = await validate(
    'https://spec.openapis.org/oas/3.1/schema-base',
    document as never,
    'BASIC',
  )
  if (output.valid) return []
  return (output.errors ?? []).map(
    (error) => `${error.instanceLocation} (${error.absoluteKeywordLocation})`,
  )
}

function pointer(...parts: string[]): string {
  return parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')
}

/**
 * Checks answers against the document: the status must be documented for the path and method,
 * and a JSON body must match its schema. Throws with the path and ajv's errors when not.
 */
export function answerValidator(document: Json) {
  const ajv = newAjv()
  ajv.addSchema(document, 'openapi')
  return function check(method: string, path: string, status: number, body: unknown): void {
    const methods = document.paths[path] ?? {}
    // why: a wrong method has no operation of its own; every operation of the path lists its 405
    const documented = status === 405 && !methods[method.toLowerCase()]
    const verb = documented ? Object.keys(methods)[0] : method.toLowerCase()
    const operation = methods[verb]
    if (!operation) throw new Error(`${method} ${path} is not in the OpenAPI document`)
    const response = operation.responses[String(status)]
    if (!response) {
      throw new Error(`${method} ${path} answered ${status}, which the document does not list`)
    }
    const where = pointer('paths', path, verb, 'responses', String(status))
    const validate = ajv.getSchema(`openapi#/${where}/content/application~1json/schema`)
    if (!validate) throw new Error(`${method} ${path} ${status} has no JSON schema`)
    if (!validate(body)) {
      throw new Error(
        `${method} ${path} ${status} does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 1000)}`,
      )
    }
  }
}
