import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { findProduct, listProducts, productUrl } from '../../src/lib/productCatalogue.js'

const productsDir = path.resolve(import.meta.dirname, '../../content/products')

describe('product catalogue', () => {
  it('holds every product page of the content folder', async () => {
    const files = (await readdir(productsDir)).filter((name) => name.endsWith('.md'))
    expect(listProducts().map((product) => product.slug)).toEqual(
      files.map((name) => name.slice(0, -3)).sort(),
    )
  })

  it('finds a product by slug, with its title, URL path and picture', () => {
    expect(findProduct('kyusu-tokoname')).toEqual({
      slug: 'kyusu-tokoname',
      title: 'Tokoname 朱泥急須 360ml 平形',
      path: '/products/kyusu-tokoname',
      image: '/images/products/kyusu-tokoname.jpg',
    })
  })

  it.each(['no-such-product', '', 'KYUSU-TOKONAME', 'news/soryo-kaitei', '__proto__'])(
    'answers null for %j',
    (slug) => {
      expect(findProduct(slug)).toBeNull()
    },
  )

  it('takes a product page’s front matter url on the storefront before /products/<slug>', () => {
    expect(productUrl('porlex-hand-grinder', 'https://store.example/')).toBe(
      'https://store.example/collections/mills/porlex-mini-2',
    )
  })

  it('builds the product URL from the site URL (D1)', () => {
    expect(productUrl('kyusu-tokoname', 'https://shop.example')).toBe(
      'https://shop.example/products/kyusu-tokoname',
    )
    expect(productUrl('kyusu-tokoname', 'http://localhost:8888/')).toBe(
      'http://localhost:8888/products/kyusu-tokoname',
    )
  })
})
