import { z } from '../../generated/zod.js'
import { InvalidInputError } from '../errors.js'
import {
  findProduct,
  findVariant,
  type CatalogueProduct,
  type CatalogueTarget,
} from '../productCatalogue.js'

/**
 * The customer forms (POST /api/reservation §4.10, POST /api/notify-signup D2): one set of field
 * rules (D6) and one 400 shape `{success: false, error, details: [{field, message}]}`, in Japanese.
 */

export const FORM_INVALID_MESSAGE = '入力内容に誤りがあります。'
export const PRODUCT_NOT_FOUND_MESSAGE = '指定された商品が見つかりません。'
/** The `variant` field's details (docs/api.md "Variants"). */
export const VARIANT_MESSAGES = {
  /** The product has variants and none was chosen. */
  required: '種類を選択してください。',
  /** The product has no variant of this id. */
  unknown: '指定された種類が見つかりません。',
  /** The product has no variants, and one was named. */
  unexpected: 'この商品には種類の選択がありません。',
  notText: '種類の指定は文字列で入力してください。',
} as const

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
  // why: a full-width address (ｈａｎａｋｏ＠ｅｘａｍｐｌｅ．ｊｐ, typed with the IME on) is the same address
  .overwrite((value) => value.normalize('NFKC').trim())
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

/**
 * `variant`: the id of one of the product's variants (docs/api.md "Variants"); not trimmed or
 * lower-cased (an identifier, like productSlug). `null` and `""` count as not given; whether the
 * product needs one is checked with the product (`requireTarget`).
 */
const variant = z
  .string({ error: VARIANT_MESSAGES.notText })
  .nullish()
  .transform((value) => value || undefined)
  .optional()
  .meta({
    type: 'string',
    description:
      'The id of one of the product’s variants (`GET /api/products/{slug}/availability` lists them): required for a product with variants, refused for one without.',
    examples: ['ai'],
  })

/** Most units any reservation may ask for; a product's own `maxPerReservation` is checked later. */
export const QUANTITY_CEILING = 100

/** The 400 detail of a quantity outside 1…`max`. */
export function quantityMessage(max: number): string {
  return `数量は1から${max}までの整数で入力してください。`
}

// why: the widget's number input and hand-written forms send "2"; a JSON number is the norm
const quantity = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,3}$/)
        .transform(Number),
    ],
    {
      error: quantityMessage(QUANTITY_CEILING),
    },
  )
  .pipe(
    z
      .number()
      .int({ error: quantityMessage(QUANTITY_CEILING) })
      .min(1, { error: quantityMessage(QUANTITY_CEILING) })
      .max(QUANTITY_CEILING, { error: quantityMessage(QUANTITY_CEILING) }),
  )
  .nullish()
  .transform((value) => value ?? 1)

/**
 * Where the shopper filled in the form (the consent record's source, docs/compliance.md):
 * `widget` (our storefront widgets send it), `form` (a shop's own HTML form); absent: `api`.
 */
const source = z.enum(['widget', 'form']).optional().catch(undefined)

/**
 * Body of POST /api/reservation (§4.10): name trimmed, e-mail trimmed and lower-cased, optional
 * `quantity` (default 1; the product's `maxPerReservation` is checked by the service), `variant`
 * (required for a product with variants, checked by the service), `source`.
 */
export const reservationForm = z.object({ name, email, productSlug, variant, quantity, source })
export type ReservationForm = z.output<typeof reservationForm>

/** Body of POST /api/notify-signup (D2): e-mail trimmed and lower-cased, `variant` as above. */
export const signupForm = z.object({ email, productSlug, variant, source })
export type SignupForm = z.output<typeof signupForm>

/** The documented 400 with one detail (a check the service makes after the schema's). */
export function fieldError(field: string, message: string): InvalidInputError {
  return new InvalidInputError(FORM_INVALID_MESSAGE, { details: [{ field, message }] })
}

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

/**
 * The catalogue product and variant a form names, or the documented 400: the product as in
 * `requireProduct`; then `details` on `variant` when a product with variants names none or one
 * it does not have, or a product without variants names one.
 */
export function requireTarget(form: { productSlug: string; variant?: string }): CatalogueTarget {
  const product = requireProduct(form.productSlug)
  if (!product.variants) {
    if (form.variant !== undefined) throw fieldError('variant', VARIANT_MESSAGES.unexpected)
    return { product, variant: null }
  }
  if (form.variant === undefined) throw fieldError('variant', VARIANT_MESSAGES.required)
  const variant = findVariant(product, form.variant)
  if (!variant) throw fieldError('variant', VARIANT_MESSAGES.unknown)
  return { product, variant }
}

/** What both public form endpoints share (endpoint options): POST only, no token, Japanese 400 and 500 texts. */
export const customerFormEndpoint = {
  methods: ['POST'],
  auth: 'none',
  invalid: formValidationError,
  internalErrorMessage: FORM_INTERNAL_ERROR_MESSAGE,
} as const
