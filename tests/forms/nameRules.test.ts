import { beforeAll, describe, expect, it } from 'vitest'
import handler from '../../netlify/functions/reservation.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { clearOutbound, TEXTS } from './formTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { eventsOf, useLogCapture } from '../helpers/logs.js'

/** What a reservation name may hold (docs/decisions-local.md, "name"). */

const PRODUCT = 'chasen-takayama'
useBlobsServer()
beforeAll(clearOutbound)
const logs = useLogCapture()

const NAME_BIDI = 'お名前に文字の表示方向を変える制御文字は使用できません。'
const NAME_BROKEN = 'お名前に読み取れない文字が含まれています。入力し直してください。'

async function post(name: unknown) {
  const context = fakeContext()
  const body = { name, email: 'hanako@example.com', productSlug: PRODUCT }
  const res = await readJson(await handler(jsonRequest('/api/reservation', body), context))
  await context.settled()
  return res
}

describe('reservation name: refused', () => {
  it.each([
    ['only a zero-width space', '\u200b', TEXTS.nameRequired],
    ['only invisible format characters', '\u200b\u2060\ufeff\u200d', TEXTS.nameRequired],
    ['only a combining mark', '\u3099', TEXTS.nameRequired],
    ['only a variation selector around spaces', ' \ufe0f ', TEXTS.nameRequired],
    ['a line separator U+2028', '山田\u2028花子', TEXTS.nameControl],
    ['a paragraph separator U+2029', '山田\u2029花子', TEXTS.nameControl],
    ['a tab', '山田\t花子', TEXTS.nameControl],
    ['NEL U+0085', '山田\u0085花子', TEXTS.nameControl],
    ['a right-to-left override U+202E', '山田\u202e子花', NAME_BIDI],
    ['a left-to-right embedding U+202A', '\u202a山田', NAME_BIDI],
    ['a first-strong isolate U+2068', '山田\u2068花子\u2069', NAME_BIDI],
    ['a right-to-left mark U+200F', '山田\u200f', NAME_BIDI],
    ['a lone high surrogate', '山田\ud800', NAME_BROKEN],
    ['a lone low surrogate', '\udc00花子', NAME_BROKEN],
  ])('%s', async (_, name, message) => {
    const res = await post(name)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      success: false,
      error: TEXTS.invalid,
      details: [{ field: 'name', message }],
    })
    expect(eventsOf(logs, 'email.logged')).toEqual([])
  })
})

describe('reservation name: accepted', () => {
  async function stored(name: string) {
    const res = await post(name)
    expect(res.status).toBe(200)
    return (await openRepositories(fakeContext()).reservations.get({
      id: res.body.reservationId,
      productSlug: PRODUCT,
    }))!.name
  }

  it('is stored NFC-normalized (a decomposed が becomes one character)', async () => {
    expect(await stored('か\u3099すみ')).toBe('がすみ')
  })

  it('keeps emoji sequences joined by ZWJ and Latin, Arabic or Hebrew names', async () => {
    for (const name of [
      '👨\u200d👩\u200d👧 family',
      'José Núñez',
      'محمد',
      'דוד',
      'O’Brien-Smith',
    ]) {
      expect(await stored(name)).toBe(name.normalize('NFC'))
    }
  })

  it('counts the 100-character limit after normalization', async () => {
    expect(await stored('か\u3099'.repeat(100))).toBe('が'.repeat(100))
  })
})
