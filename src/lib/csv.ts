/**
 * CSV for Excel in Japan: UTF-8 with a byte order mark (without it Excel reads Shift_JIS),
 * RFC 4180 quoting and CRLF line ends, and cells that a spreadsheet would run as a formula
 * neutralised with a leading apostrophe (CSV injection, OWASP), also when only their NFKC form
 * starts like one (full-width `＝1+1`). Written once for the dashboard's files and the server's
 * exports (admin/listExports.ts).
 */

export interface CsvColumn<T> {
  header: string
  value: (row: T) => string | number | boolean | null | undefined
}

/** Starts a file, so that Excel reads it as UTF-8. */
export const CSV_BOM = '\uFEFF'
// why: Excel and LibreOffice start a formula with these; tab and CR are OWASP's additions
const FORMULA_START = /^[=+\-@\t\r]/
const NEEDS_QUOTES = /[",\r\n]/

/** One cell: neutralised when it could start a formula, quoted when RFC 4180 requires it. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  // why: NFKC first, so full-width and small forms (＝, ＋, ﹦) count as the signs they stand for
  if (typeof value === 'string' && FORMULA_START.test(text.normalize('NFKC'))) text = `'${text}`
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The header row, CRLF-terminated. */
export function csvHeader<T>(columns: readonly CsvColumn<T>[]): string {
  return columns.map((column) => csvCell(column.header)).join(',') + '\r\n'
}

/** One item's row, CRLF-terminated. */
export function csvRow<T>(row: T, columns: readonly CsvColumn<T>[]): string {
  return columns.map((column) => csvCell(column.value(row))).join(',') + '\r\n'
}

/** One CRLF-terminated row per item. */
export function csvRows<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  let text = ''
  for (const row of rows) text += csvRow(row, columns)
  return text
}

/** The whole file: BOM, header row, one row per item, CRLF after every row. */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  return CSV_BOM + csvHeader(columns) + csvRows(rows, columns)
}
