const JST_FORMAT = new Intl.DateTimeFormat('ja-JP', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})

/** `2026年11月22日 11:25（日本時間）` for an ISO timestamp; the input itself when it is not a date. */
export function formatJst(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return `${JST_FORMAT.format(date)}（日本時間）`
}

/** `2027年1月20日` for a date (`2027-01-20`), else `formatJst`: a release date as shoppers read it. */
export function formatReleaseDate(value: string): string {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (date) return `${Number(date[1])}年${Number(date[2])}月${Number(date[3])}日`
  return formatJst(value)
}
