import type { StockLine } from './stockSchemas.js'

/**
 * Stock lines from the shape a POS or inventory system exports: CSV with a header row (or a JSON
 * array of objects), naming each product or variant by `sku`, or by slug (and `variant`, the
 * variant's id, for a product with variants), with a quantity. Shared by the
 * scheduled feed reconciliation and the dashboard's CSV import, so both read a file alike.
 */

/** Header names accepted for each column (compared lower-cased, spaces and `_` removed). */
const COLUMN_NAMES = {
  sku: ['sku', 'skucode', 'code', '商品コード', 'sku番号'],
  productSlug: ['productslug', 'slug', 'product', '商品スラッグ'],
  variant: ['variant', 'variantid', '種類', 'バリエーション'],
  quantity: ['quantity', 'qty', 'stock', '在庫', '在庫数', '数量'],
} as const

export interface StockTable {
  lines: StockLine[]
  /** Row numbers (1 = the first data row) that name no product or carry no usable quantity. */
  rejectedRows: number[]
}

/** The problem with a file as a whole (no header that names a product column and a quantity). */
export class StockTableFormatError extends Error {
  override name = 'StockTableFormatError'
}

function normalizedHeader(cell: string): string {
  return cell
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]/g, '')
}

/** Cells of RFC 4180 CSV (quoted cells, doubled quotes, CRLF or LF rows); empty rows dropped. */
export function parseCsvRows(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  const source = text.replace(/^\uFEFF/, '')
  for (let index = 0; index < source.length; index++) {
    const char = source[index]
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        cell += '"'
        index++
      } else if (char === '"') quoted = false
      else cell += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      row.push(cell)
      cell = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[index + 1] === '\n') index++
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
    } else cell += char
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell)
    rows.push(row)
  }
  return rows.filter((cells) => cells.some((value) => value.trim() !== ''))
}

function quantityOf(value: unknown): number | null {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*\d+\s*$/.test(value)
        ? Number(value)
        : Number.NaN
  return Number.isInteger(number) && number >= 0 && number <= 1_000_000 ? number : null
}

function lineOf(fields: {
  sku?: unknown
  productSlug?: unknown
  variant?: unknown
  quantity?: unknown
}): StockLine | null {
  const quantity = quantityOf(fields.quantity)
  const productSlug = typeof fields.productSlug === 'string' ? fields.productSlug.trim() : ''
  const variant = typeof fields.variant === 'string' ? fields.variant.trim() : ''
  const sku =
    typeof fields.sku === 'string' || typeof fields.sku === 'number'
      ? String(fields.sku).trim()
      : ''
  if (quantity === null || (!productSlug && !sku)) return null
  if (!productSlug) return { sku, quantity }
  return variant ? { productSlug, variant, quantity } : { productSlug, quantity }
}

/** Lines of CSV text with a header row. */
export function stockTableFromCsv(text: string): StockTable {
  const [header, ...rows] = parseCsvRows(text)
  const names = (header ?? []).map(normalizedHeader)
  const column = (candidates: readonly string[]) =>
    names.findIndex((name) => candidates.includes(name))
  const sku = column(COLUMN_NAMES.sku)
  const productSlug = column(COLUMN_NAMES.productSlug)
  const variant = column(COLUMN_NAMES.variant)
  const quantity = column(COLUMN_NAMES.quantity)
  if (quantity < 0 || (sku < 0 && productSlug < 0)) {
    throw new StockTableFormatError(
      'The first row must name the columns: sku or productSlug, and quantity',
    )
  }
  const table: StockTable = { lines: [], rejectedRows: [] }
  rows.forEach((cells, index) => {
    const line = lineOf({
      sku: sku >= 0 ? cells[sku] : undefined,
      productSlug: productSlug >= 0 ? cells[productSlug] : undefined,
      variant: variant >= 0 ? cells[variant] : undefined,
      quantity: cells[quantity],
    })
    if (line) table.lines.push(line)
    else table.rejectedRows.push(index + 1)
  })
  return table
}

/** Lines of a JSON array `[{sku | productSlug (+ variant), quantity}]`. */
export function stockTableFromJson(value: unknown): StockTable {
  if (!Array.isArray(value)) {
    throw new StockTableFormatError(
      'A JSON stock feed must be an array of {sku | productSlug, quantity}',
    )
  }
  const table: StockTable = { lines: [], rejectedRows: [] }
  value.forEach((item, index) => {
    const line = typeof item === 'object' && item !== null ? lineOf(item) : null
    if (line) table.lines.push(line)
    else table.rejectedRows.push(index + 1)
  })
  return table
}

/** Lines of a feed body: JSON when it is JSON (by type or by its first character), else CSV. */
export function stockTableFromText(text: string, contentType: string | null): StockTable {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart()
  if (contentType?.includes('json') || trimmed.startsWith('[')) {
    let value: unknown
    try {
      value = JSON.parse(trimmed)
    } catch {
      throw new StockTableFormatError('The stock feed is not valid JSON')
    }
    return stockTableFromJson(value)
  }
  return stockTableFromCsv(text)
}
