/** Saving CSV files in the browser; the format itself is src/lib/csv.ts. */
export { csvCell, toCsv, type CsvColumn } from '../lib/csv.js'

/** Lets the browser save `csv` as `fileName`. */
export function downloadCsv(fileName: string, csv: string): void {
  saveFile(fileName, new Blob([csv], { type: 'text/csv;charset=utf-8' }))
}

/** Lets the browser save `file` as `fileName`. */
export function saveFile(fileName: string, file: Blob): void {
  const url = URL.createObjectURL(file)
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
