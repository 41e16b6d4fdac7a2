import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import matter from 'gray-matter'
import { z } from 'zod'
import { markdownToPlainText } from './markdownText.js'
import { preorderFields, preorderFrontMatter, windowProblem } from './preorderFrontMatter.js'
import { isReading } from './wordReadings.js'
import type { PreorderSettings, StoredPage } from '../../lib/search/siteContentTypes.js'
import type { CatalogueVariant } from '../../lib/catalogueProduct.js'

/** Product slugs and every content file name follow this pattern (D1). */
const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** The content type whose pages form the product catalogue (D1). */
export const PRODUCT_CONTENT_TYPE = 'products'

/** A page of the content folder could not be read; the message names the file and the fix. */
export class InvalidContentPageError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(
      `${file}: ${problem}. Fix the page: it needs YAML front matter with title (text), ` +
        `description (text), tags (a list) and createdAt (an ISO date such as 2026-11-22).`,
    )
    this.name = 'InvalidContentPageError'
  }
}

/** The content folder itself is missing. */
export class ContentDirectoryNotFoundError extends Error {
  constructor(readonly contentDir: string) {
    super(`Content folder ${contentDir} does not exist. Set CONTENT_DIR to the folder of pages.`)
    this.name = 'ContentDirectoryNotFoundError'
  }
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

const createdAtSchema = z.union([
  // why: YAML reads an unquoted 2026-11-22 as a timestamp, so gray-matter hands us a Date
  z.date().refine((date) => !Number.isNaN(date.getTime()), 'must be a valid date'),
  z
    .string()
    .regex(ISO_DATE, 'must be an ISO date such as 2026-11-22')
    .refine((text) => !Number.isNaN(Date.parse(text)), 'must be a valid date'),
])

// why: a POS or inventory system names products by its own code; YAML may read digits as a number
const skuSchema = z
  .union([z.string(), z.number()], 'sku must be text')
  .transform((value) => String(value).trim())
  .refine((value) => value.length > 0, 'sku must not be empty')

/** Longest variant id, in characters (it is part of blob keys and of the widgets' attributes). */
const VARIANT_ID_MAX = 40
/** Longest variant name, in characters (shown in e-mails, chat messages and the widgets). */
const VARIANT_NAME_MAX = 40

/** One entry of a product's `variants:` list (docs/api.md "Product data"). */
const variantSchema = z.object({
  id: z
    .string('variant id must be text')
    .max(VARIANT_ID_MAX, `variant id must be at most ${VARIANT_ID_MAX} characters`)
    .regex(
      SLUG_PATTERN,
      'variant id must be lower-case letters, digits and single hyphens (a-z, 0-9, -)',
    ),
  name: z
    .string('variant name must be text')
    .trim()
    .min(1, 'variant name must not be empty')
    .max(VARIANT_NAME_MAX, `variant name must be at most ${VARIANT_NAME_MAX} characters`),
  sku: skuSchema.optional(),
  ...preorderFrontMatter,
})

const frontMatterSchema = z.object({
  title: z.string('title must be text').trim().min(1, 'title must not be empty'),
  description: z.string('description must be text').trim().default(''),
  tags: z.array(z.string('each tag must be text').trim().min(1), 'tags must be a list'),
  createdAt: createdAtSchema,
  image: z.string().optional(),
  price: z.number().nonnegative().optional(),
  ...preorderFrontMatter,
  sku: skuSchema.optional(),
  // why: a name the dictionary reads wrong (常滑焼 is とこなめやき, not とこなめしょう), read as
  // given wherever the site writes it (docs/search.md, "Readings")
  reading: z
    .record(
      z.string().trim().min(1),
      z
        .string('each reading must be text')
        .trim()
        .refine(
          isReading,
          'each reading must be kana (ひらがな or カタカナ), e.g. 常滑焼: とこなめやき',
        ),
      'reading must map words to their readings, e.g. 常滑焼: とこなめやき',
    )
    .optional(),
  // why: the storefront's address of the page when it is not /products/<slug> (STOREFRONT_URL)
  url: z
    .string('url must be text')
    .trim()
    .regex(
      /^(?:https?:\/\/[^\s/]+(?:\/\S*)?|\/\S*)$/i,
      'url must be an absolute http(s) address or a path starting with /',
    )
    .optional(),
  // why: a mug in three glazes is one product page; shoppers reserve and wait for one glaze
  variants: z
    .array(variantSchema, 'variants must be a list of {id, name, sku?}')
    .min(1, 'variants must list at least one variant (or be left out)')
    .optional(),
})

export interface ContentPage extends StoredPage {
  contentType: string
  fileSlug: string
  /** Pre-order settings of a product page (docs/api.md "Product data"); empty for others. */
  preorder?: PreorderSettings
  /** The product's stock-keeping code from the front matter (`sku:`), if any. */
  sku?: string
  /** The page's address on the storefront from the front matter (`url:`), if any. */
  url?: string
  /** The product's picture from the front matter (`image:`), if any. */
  image?: string
  /** Readings the front matter corrects (`reading:`, word → kana), if any. */
  readings?: Record<string, string>
  /** A product's variants from the front matter (`variants:`), if any. */
  variants?: CatalogueVariant[]
}

/** Reads every `<contentDir>/<contentType>/<fileSlug>.md`, sorted by id. */
/** `onPage` is called after each page read, with the number read so far. */
export async function loadContentPages(
  contentDir: string,
  onPage: (read: number) => void = () => {},
): Promise<ContentPage[]> {
  const typeDirs = await readdir(contentDir, { withFileTypes: true }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ContentDirectoryNotFoundError(contentDir)
    }
    throw error
  })
  const pages: ContentPage[] = []
  for (const typeDir of typeDirs.filter((entry) => entry.isDirectory())) {
    const dir = path.join(contentDir, typeDir.name)
    const files = (await readdir(dir)).filter((name) => name.endsWith('.md'))
    for (const fileName of files) {
      const file = path.join(dir, fileName)
      pages.push(parseContentPage(file, typeDir.name, await readFile(file, 'utf8')))
      onPage(pages.length)
    }
  }
  return pages.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** Parses one page; throws InvalidContentPageError naming `file`. */
function parseContentPage(file: string, contentType: string, source: string): ContentPage {
  const fileSlug = path.basename(file, '.md')
  if (!SLUG_PATTERN.test(contentType) || !SLUG_PATTERN.test(fileSlug)) {
    throw new InvalidContentPageError(
      file,
      'folder and file names must be lower-case letters, digits and single hyphens (a-z, 0-9, -)',
    )
  }
  let parsed: matter.GrayMatterFile<string>
  try {
    // why: gray-matter caches by content unless options are given; a cached object is shared
    parsed = matter(source, {})
  } catch (error) {
    throw new InvalidContentPageError(
      file,
      `front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`,
    )
  }
  const result = frontMatterSchema.safeParse(parsed.data)
  if (!result.success) {
    const issue = result.error.issues[0]
    const field = issue?.path.join('.') || 'front matter'
    throw new InvalidContentPageError(
      file,
      `invalid front matter field ${field}: ${issue?.message}`,
    )
  }
  const data = result.data
  const problem = windowProblem(data)
  if (problem) throw new InvalidContentPageError(file, problem)
  const variants = data.variants && variantsOf(file, contentType, data)
  return {
    id: `${contentType}/${fileSlug}`,
    slug: `/${contentType}/${fileSlug}`,
    contentType,
    fileSlug,
    title: data.title,
    description: data.description,
    tags: data.tags,
    createdAt: formatCreatedAt(data.createdAt),
    text: withVariantNames(markdownToPlainText(parsed.content), variants),
    preorder: preorderFields(data),
    ...(data.sku ? { sku: data.sku } : {}),
    ...(data.url ? { url: data.url } : {}),
    ...(data.image ? { image: data.image } : {}),
    ...(data.reading ? { readings: data.reading } : {}),
    ...(variants ? { variants } : {}),
  }
}

type FrontMatter = z.output<typeof frontMatterSchema>

/** A product's variants as the catalogue keeps them; throws naming `file` and the fix. */
function variantsOf(file: string, contentType: string, data: FrontMatter): CatalogueVariant[] {
  if (contentType !== PRODUCT_CONTENT_TYPE) {
    throw new InvalidContentPageError(file, 'variants are only for product pages')
  }
  if (data.sku) {
    throw new InvalidContentPageError(
      file,
      'a product with variants has its sku on each variant: move sku into the variants',
    )
  }
  const seen = new Set<string>()
  return (data.variants ?? []).map((variant) => {
    if (seen.has(variant.id)) {
      throw new InvalidContentPageError(file, `variant id ${variant.id} is listed twice`)
    }
    seen.add(variant.id)
    // why: the window that applies is the variant's own bounds, else the product's
    const problem = windowProblem({
      reservationOpensAt: variant.reservationOpensAt ?? data.reservationOpensAt,
      reservationClosesAt: variant.reservationClosesAt ?? data.reservationClosesAt,
    })
    if (problem) throw new InvalidContentPageError(file, `variant ${variant.id}: ${problem}`)
    return {
      id: variant.id,
      name: variant.name,
      ...(variant.sku ? { sku: variant.sku } : {}),
      ...preorderFields(variant),
    }
  })
}

/**
 * The page text the index and excerpts read: the body, then a line naming the variants, so that
 * a variant's name finds its product (「藍 マグカップ」) without being in its title.
 */
function withVariantNames(text: string, variants: CatalogueVariant[] | undefined): string {
  if (!variants) return text
  const names = `種類: ${variants.map((variant) => variant.name).join('、')}`
  return text ? `${text}\n${names}` : names
}

/**
 * Every stock-keeping code of the catalogue once (products' and variants'): a stock line names
 * one product or variant. Throws naming the second page that uses a code.
 */
export function checkUniqueSkus(pages: readonly ContentPage[]): void {
  const owners = new Map<string, string>()
  for (const page of pages) {
    const skus = [page.sku, ...(page.variants ?? []).map((variant) => variant.sku)]
    for (const sku of skus) {
      if (sku === undefined) continue
      const owner = owners.get(sku)
      if (owner !== undefined) {
        throw new InvalidContentPageError(
          `${page.id}.md`,
          `sku ${sku} is already used by ${owner}; each sku must name one product or variant`,
        )
      }
      owners.set(sku, page.id)
    }
  }
}

function formatCreatedAt(value: Date | string): string {
  if (typeof value === 'string') return value
  const iso = value.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso
}
