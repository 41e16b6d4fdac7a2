import { z } from '../../generated/zod.js'
import { InvalidInputError } from '../errors.js'
import { findProduct, type CatalogueProduct } from '../productCatalogue.js'

/**
 * The customer forms (POST /api/reservation §4.10, POST /api/notify-signup D2): one set of field
 * rules (D6) and one 400 shape `{success: false, error, details: [{field, message}]}`, in Japanese.
 */

export const FORM_INVALID_MESSAGE = '入力内容に誤りがあります。'
export const PRODUCT_NOT_FOUND_MESSAGE = '指定された商品が見つかりません。'
export const FORM_INTERNAL_ERROR_MESSAGE =
  'サーバーエラーが発生しました。しばらくしてから再度お試しください。'

/** D6 field limits. */
export const NAME_MAX_LENGTH = 100
export const EMAIL_MAX_LENGTH = 254
export const PRODUCT_SLUG_MAX_LENGTH = 100
/** D1 slug form. */
export const PRODUCT_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** A string field whose "missing" and "not a string" answers are in Japanese. */
function textField(required: string, notText: string) {
  return z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? required : notText),
  })
}

// why: line breaks (also U+2028/U+2029) and controls break the e-mail and chat layout
const LINE_BREAK_OR_CONTROL = /[\p{Cc}\u2028\u2029]/u
// why: bidi overrides, embeddings, isolates and marks can make a name display as other text
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u
// why: a lone surrogate is not text; it turns into U+FFFD or breaks the JSON of outbound calls
const LONE_SURROGATE = /\p{Cs}/u
// why: a name needs something one can see: a letter, digit, symbol or punctuation mark
const VISIBLE = /[\p{L}\p{N}\p{S}\p{P}]/u

/**
 * What a name may hold (docs/decisions-local.md): trimmed (also full-width spaces) and NFC
 * normalized; 1–100 characters; at least one visible character (not only U+200B and the like);
 * no line breaks, control characters, bidi controls or lone surrogates.
 */
const name = textField('お名前を入力してください。', 'お名前は文字列で入力してください。')
  .trim()
  .transform((value) => value.normalize('NFC'))
  .pipe(
    z
      .string()
      .min(1, { error: 'お名前を入力してください。' })
      // why: count characters as a person does (an emoji is one), not UTF-16 units
      .refine((value) => [...value].length <= NAME_MAX_LENGTH, {
        error: `お名前は${NAME_MAX_LENGTH}文字以内で入力してください。`,
      })
      .refine((value) => !LINE_BREAK_OR_CONTROL.test(value), {
        error: 'お名前に改行や制御文字は使用できません。',
      })
      .refine((value) => !BIDI_CONTROL.test(value), {
        error: 'お名前に文字の表示方向を変える制御文字は使用できません。',
      })
      .refine((value) => !LONE_SURROGATE.test(value), {
        error: 'お名前に読み取れない文字が含まれています。入力し直してください。',
      })
      .refine((value) => VISIBLE.test(value), { error: 'お名前を入力してください。' }),
  )

const email = textField(
  'メールアドレスを入力してください。',
  'メールアドレスは文字列で入力してください。',
)
  .trim()
  .min(1, { error: 'メールアドレスを入力してください。' })
  .max(EMAIL_MAX_LENGTH, {
    error: `メールアドレスは${EMAIL_MAX_LENGTH}文字以内で入力してください。`,
  })
  .regex(z.regexes.email, { error: 'メールアドレスの形式が正しくありません。' })
  .toLowerCase()

const productSlug = textField('商品を指定してください。', '商品の指定は文字列で入力してください。')
  .min(1, { error: '商品を指定してください。' })
  .max(PRODUCT_SLUG_MAX_LENGTH, {
    error: `商品の指定が長すぎます（${PRODUCT_SLUG_MAX_LENGTH}文字以内）。`,
  })
  .regex(PRODUCT_SLUG_PATTERN, {
    error: '商品の指定が正しくありません（半角英小文字・数字・ハイフンのみ）。',
  })

/** Body of POST /api/reservation (§4.10): name trimmed, e-mail trimmed and lower-cased. */
export const reservationForm = z.object({ name, email, productSlug })
export type ReservationForm = z.output<typeof reservationForm>

/** Body of POST /api/notify-signup (D2): e-mail trimmed and lower-cased. */
export const signupForm = z.object({ email, productSlug })
export type SignupForm = z.output<typeof signupForm>

/** The documented 400: one detail per invalid field (its first problem), in form order. */
export function formValidationError(error: z.ZodError): InvalidInputError {
  const details: { field: string; message: string }[] = []
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '')
    if (!details.some((detail) => detail.field === field)) {
      details.push({ field, message: issue.message })
    }
  }
  return new InvalidInputError(FORM_INVALID_MESSAGE, { details })
}

/** The catalogue product (D1), or the documented 400 "product not found". */
export function requireProduct(slug: string): CatalogueProduct {
  const product = findProduct(slug)
  if (!product) throw new InvalidInputError(PRODUCT_NOT_FOUND_MESSAGE)
  return product
}

/** What both public form endpoints share (endpoint options): POST only, no token, Japanese 400 and 500 texts. */
export const customerFormEndpoint = {
  methods: ['POST'],
  auth: 'none',
  invalid: formValidationError,
  internalErrorMessage: FORM_INTERNAL_ERROR_MESSAGE,
} as const
