import { z } from 'zod'
import { ROUTES, type RouteAuth } from '../../lib/routes.js'
import type { ApiOperation, ResponseSpec } from './operationSpec.js'
import {
  errorBody,
  formErrorBody,
  reservationRecord,
  subscriptionRecord,
} from './responseSchemas.js'

type Json = Record<string, unknown>

/** §5, D7: the two token groups. */
const SECURITY_SCHEMES = {
  adminToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The `ADMIN_API_TOKEN` group: lists, status updates, statistics, restock sending, history and resume, search analytics. When `ADMIN_API_TOKEN` is unset, the `PREORDER_API_TOKEN` is accepted instead. A `STAFF_TOKENS` entry of group `admin` or `admin+preorder` is accepted too.',
  },
  preorderToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The `PREORDER_API_TOKEN` group: archive, archive lists, unarchive, delete. When `PREORDER_API_TOKEN` is unset, the `ADMIN_API_TOKEN` is accepted instead. A `STAFF_TOKENS` entry of group `preorder` or `admin+preorder` is accepted too.',
  },
  deliveryTicket: {
    type: 'http',
    scheme: 'bearer',
    description:
      "A delivery ticket: signed with the deploy's secret, naming one notification, valid for 5 minutes and spent by the run that uses it. Only a send or resume of this deploy issues one, to start its own background delivery; the admin tokens are not tickets.",
  },
  rebuildTicket: {
    type: 'http',
    scheme: 'bearer',
    description:
      "A rebuild ticket: signed with the deploy's secret and valid for 5 minutes. Only this deploy issues one, to start its own background rebuild of missing record indexes; the admin tokens are not tickets.",
  },
  exportTicket: {
    type: 'http',
    scheme: 'bearer',
    description:
      "An export ticket: signed with a key derived from this deploy's admin tokens, naming one CSV export, valid for 5 minutes and spent by the run that uses it. Only `POST /api/admin/exports` issues one, to start its own background run.",
  },
}

const SCHEME_OF = {
  admin: 'adminToken',
  preorder: 'preorderToken',
  deliveryTicket: 'deliveryTicket',
  rebuildTicket: 'rebuildTicket',
  exportTicket: 'exportTicket',
} as const

/** The security requirement of a route: none, its scheme, or either token group (`staff`). */
function securityOf(auth: RouteAuth): Json[] {
  if (auth === 'none') return []
  if (auth === 'staff') return [{ adminToken: [] }, { preorderToken: [] }]
  return [{ [SCHEME_OF[auth]]: [] }]
}

const DESCRIPTION = [
  'The back end of a Japanese online shop: reservations, restock notifications, site search and the admin API.',
  'Every JSON answer has `Content-Type: application/json; charset=utf-8` and, search excepted, a boolean `success`; failures are `{success: false, error}` with the exact texts listed here. Every response carries `X-Request-Id`.',
  'Public endpoints answer browsers of any origin (CORS `*`); admin endpoints only the origins in `ADMIN_ALLOWED_ORIGINS`.',
].join('\n\n')

function pascal(name: string): string {
  return name[0].toUpperCase() + name.slice(1)
}

/** Collects the named schemas of the document: one registry per side of the transforms. */
class SchemaNames {
  readonly output = z.registry<{ id: string }>()
  readonly input = z.registry<{ id: string }>()
  readonly #names = new Map<z.ZodType, string>()

  constructor() {
    this.name(errorBody, 'ErrorBody', 'output')
    this.name(formErrorBody, 'FormErrorBody', 'output')
    this.name(reservationRecord, 'Reservation', 'output')
    this.name(subscriptionRecord, 'NotifySubscription', 'output')
  }

  /** A `$ref` to `schema`, registering it under `name` the first time it is seen. */
  name(schema: z.ZodType, name: string, view: 'input' | 'output'): Json {
    let id = this.#names.get(schema)
    if (!id) {
      id = name
      this.#names.set(schema, id)
      this[view].add(schema, { id })
    }
    return { $ref: `#/components/schemas/${id}` }
  }

  /** Every named schema as JSON Schema 2020-12 (the dialect of OpenAPI 3.1). */
  components(): Record<string, Json> {
    const uri = (id: string) => `#/components/schemas/${id}`
    const convert = (registry: z.core.$ZodRegistry<{ id: string }>, io: 'input' | 'output') =>
      z.toJSONSchema(registry, { target: 'draft-2020-12', io, uri, unrepresentable: 'any' })
        .schemas as Record<string, Json>
    const all = { ...convert(this.output, 'output'), ...convert(this.input, 'input') }
    for (const [id, schema] of Object.entries(all)) {
      delete schema.$schema
      delete schema.$id
      // why: request bodies ignore fields they do not know; zod's output view says otherwise
      if (id.endsWith('Request')) allowExtraFields(schema)
    }
    return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)))
  }
}

function allowExtraFields(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return
  const node = schema as Json
  if (node.additionalProperties === false) delete node.additionalProperties
  for (const value of Object.values(node)) allowExtraFields(value)
}

function parameters(operation: ApiOperation): Json[] | undefined {
  if (!operation.query && !operation.pathParameters && !operation.headers) return undefined
  return [
    ...parametersIn('path', operation.pathParameters),
    ...parametersIn('query', operation.query),
    ...parametersIn('header', operation.headers),
  ]
}

function parametersIn(where: 'path' | 'query' | 'header', object: z.ZodObject | undefined): Json[] {
  if (!object) return []
  const schema = z.toJSONSchema(object, { target: 'draft-2020-12', io: 'input' }) as Json
  const required = (schema.required as string[] | undefined) ?? []
  return Object.entries(schema.properties as Record<string, Json>).map(([name, property]) => {
    const { description, ...rest } = property
    const isRequired = where === 'path' || required.includes(name)
    return { name, in: where, required: isRequired, description, schema: rest }
  })
}

function requestBody(operation: ApiOperation, names: SchemaNames): Json | undefined {
  if (!operation.body) return undefined
  const { schema, view, example } = operation.body
  const content: Json = {
    'application/json': {
      schema: names.name(schema, `${pascal(operation.operationId)}Request`, view),
      example,
    },
  }
  if (operation.formBody) {
    content['application/x-www-form-urlencoded'] = {
      schema: z.toJSONSchema(operation.formBody, { target: 'draft-2020-12', io: 'input' }),
    }
  }
  return { required: ROUTES[operation.route].auth === 'none', content }
}

function response(
  operation: ApiOperation,
  status: number,
  spec: ResponseSpec,
  names: SchemaNames,
): Json {
  const headers: Json = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } }
  if (status === 405) headers.Allow = { $ref: '#/components/headers/Allow' }
  if (status === 200 && operation.method === 'get' && typeof spec.body === 'object') {
    headers['Cache-Control'] = { $ref: '#/components/headers/CacheControl' }
  }
  const content: Json = {}
  if (spec.body === 'html' || spec.alsoHtml) content['text/html'] = { schema: { type: 'string' } }
  if (spec.body === 'csv') content['text/csv'] = { schema: { type: 'string' } }
  if (typeof spec.body === 'object') {
    const examples = Object.fromEntries(
      Object.entries(spec.examples ?? {}).map(([name, value]) => [name, { value }]),
    )
    content['application/json'] = {
      schema: names.name(spec.body, `${pascal(operation.operationId)}${status}`, 'output'),
      ...(Object.keys(examples).length ? { examples } : {}),
    }
  }
  if (status === 429 || status === 202) delete headers['X-Request-Id']
  return {
    description: spec.description,
    headers,
    ...(Object.keys(content).length ? { content } : {}),
  }
}

/** The OpenAPI 3.1 document of `operations`. */
export function buildOpenApiDocument(operations: ApiOperation[], version: string): Json {
  const names = new SchemaNames()
  const paths: Record<string, Json> = {}
  for (const operation of operations) {
    const { path, methods, auth } = ROUTES[operation.route]
    if (!(methods as readonly string[]).includes(operation.method.toUpperCase())) {
      throw new Error(
        `${operation.operationId}: ${operation.route} answers ${methods.join(', ')}, not ${operation.method.toUpperCase()} (src/lib/routes.ts)`,
      )
    }
    const responses = Object.fromEntries(
      Object.entries(operation.responses)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([status, spec]) => [status, response(operation, Number(status), spec, names)]),
    )
    const entry: Json = {
      operationId: operation.operationId,
      tags: [operation.tag],
      summary: operation.summary,
      description: operation.description,
      security: securityOf(auth),
      parameters: parameters(operation),
      requestBody: requestBody(operation, names),
      responses,
    }
    // why: Netlify writes a path parameter `:slug`, OpenAPI `{slug}`
    const openApiPath = path.replace(/:([A-Za-z]+)/g, '{$1}')
    paths[openApiPath] = {
      ...paths[openApiPath],
      [operation.method]: JSON.parse(JSON.stringify(entry)),
    }
  }
  return {
    openapi: '3.1.1',
    info: { title: 'Shop back end API', version, description: DESCRIPTION },
    servers: [
      { url: '/', description: 'The deployed site (or `npm start`: http://localhost:8888)' },
    ],
    tags: [
      { name: 'Storefront', description: 'Public endpoints the shop pages and widgets call.' },
      {
        name: 'Admin',
        description: 'Records, statistics, restock sending (`ADMIN_API_TOKEN` group).',
      },
      {
        name: 'Archive',
        description: 'Archive, archive lists, unarchive, delete (`PREORDER_API_TOKEN` group).',
      },
      {
        name: 'Service',
        description: 'This document, the delivery worker and the scheduled functions.',
      },
    ],
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      headers: {
        RequestId: {
          description: 'The request id; every log line of the request has it.',
          schema: { type: 'string' },
        },
        Allow: { description: 'The methods the endpoint answers.', schema: { type: 'string' } },
        CacheControl: { description: '`public, max-age=300`', schema: { type: 'string' } },
      },
      schemas: names.components(),
    },
  }
}
