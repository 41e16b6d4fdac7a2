/**
 * One part of an export's CSV as UTF-8 bytes, written a row at a time as the list is read
 * (listExports.ts): a row becomes bytes as soon as its record is visited, so neither the
 * records nor their row strings wait in the JavaScript heap for the part to be written.
 */
export class CsvPartBytes {
  #buffer: Buffer
  #length = 0

  /** `capacity`: bytes held before the buffer grows. Default: 1 MiB (a part of 5,000 rows). */
  constructor(capacity = 1 << 20) {
    this.#buffer = Buffer.allocUnsafe(capacity)
  }

  /** Bytes written since the part began. */
  get byteLength(): number {
    return this.#length
  }

  /** Appends `text` as UTF-8. */
  add(text: string): void {
    // why: a UTF-16 code unit takes at most 3 bytes of UTF-8
    const most = this.#length + text.length * 3
    if (most > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(most, this.#buffer.length * 2))
      this.#buffer.copy(grown, 0, 0, this.#length)
      this.#buffer = grown
    }
    this.#length += this.#buffer.write(text, this.#length, 'utf8')
  }

  /** A copy of the part's bytes (to store); the next part begins empty. */
  take(): ArrayBuffer {
    const { buffer, byteOffset } = this.#buffer
    const bytes = buffer.slice(byteOffset, byteOffset + this.#length) as ArrayBuffer
    this.#length = 0
    return bytes
  }
}
