import { describe, expect, it } from 'vitest'
import { csvCell, csvFileName, toCsv } from '../../src/dashboard/csvExport.js'

describe('dashboard CSV export', () => {
  it('starts with a UTF-8 byte order mark and ends every row with CRLF', () => {
    const csv = toCsv([{ a: '山田' }], [{ header: '名前', value: (row) => row.a }])
    expect(csv).toBe('\uFEFF名前\r\n山田\r\n')
    expect([...Buffer.from(csv, 'utf8').subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
  })

  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r\nlf', '"cr\r\nlf"'],
    ['', ''],
  ])('quotes %j as RFC 4180 says: %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected)
  })

  it.each([
    ['=1+1', "'=1+1"],
    ['+81 90', "'+81 90"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['=HYPERLINK("http://evil.test","x")', `"'=HYPERLINK(""http://evil.test"",""x"")"`],
    ['a=1', 'a=1'],
    // full-width and small forms: Excel in Japan reads them as the ASCII sign
    ['＝1+1', "'＝1+1"],
    ['＋81 90', "'＋81 90"],
    ['－2', "'－2"],
    ['＠SUM(A1)', "'＠SUM(A1)"],
    ['\ufe66cmd', "'\ufe66cmd"],
    ['ａ＝1', 'ａ＝1'],
  ])('neutralises a cell that could start a formula: %j → %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected)
  })

  it('writes numbers as numbers and missing values as empty cells', () => {
    expect(csvCell(-3)).toBe('-3')
    expect(csvCell(12)).toBe('12')
    expect(csvCell(null)).toBe('')
    expect(csvCell(undefined)).toBe('')
  })

  it('keeps columns in order across rows', () => {
    const rows = [
      { id: 'r1', note: 'x, y' },
      { id: 'r2', note: null },
    ]
    const csv = toCsv(rows, [
      { header: 'ID', value: (row) => row.id },
      { header: 'メモ', value: (row) => row.note },
    ])
    expect(csv).toBe('\uFEFFID,メモ\r\nr1,"x, y"\r\nr2,\r\n')
  })

  it('names the file after what it holds and when', () => {
    expect(csvFileName('reservations', new Date(2026, 10, 22, 9, 5))).toBe(
      'reservations-20261122-0905.csv',
    )
  })
})
