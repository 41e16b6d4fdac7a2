/**
 * CSV for Excel in Japan: UTF-8 with a byte order mark (without it Excel reads Shift_JIS),
 * RFC 4180 quoting and CRLF line ends, and cells that a spreadsheet would run as a formula
 * neutralised with a leading apostrophe (CSV injection, OWASP), also when only their NFKC form
 * starts like one (full-width `＝1+1`).
 */

export interface CsvColumn<T> {
  header: string
  value: (row: T) => string | number | boolean | null | undefined
}

const BOM = '\uFEFF'
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

/** The whole file: BOM, header row, one row per item, CRLF after every row. */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const lines = [columns.map((column) => csvCell(column.header))]
  for (const row of rows) lines.push(columns.map((column) => csvCell(column.value(row))))
  return BOM + lines.map((cells) => cells.join(',') + '\r\n').join('')
}

/** Lets the browser save `csv` as `fileName`. */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** `reservations-20261122-1125.csv`: what, and when (local time of the browser). */
export function csvFileName(what: string, now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`
  return `${what}-${stamp}.csv`
}
