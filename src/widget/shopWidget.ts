/**
 * The storefront widget script (`/widget/shop-widget.js`, built by `npm run build`):
 * `<script src="https://SHOP/widget/shop-widget.js"></script>` (or with `type="module"`) defines
 * `<shop-reserve>`, `<shop-notify>` and `<shop-search>`.
 */
import { ShopNotifyElement } from './shopNotify.js'
import { ShopReserveElement } from './shopReserve.js'
import { ShopSearchElement } from './shopSearch.js'

const ELEMENTS: [string, CustomElementConstructor][] = [
  ['shop-reserve', ShopReserveElement],
  ['shop-notify', ShopNotifyElement],
  ['shop-search', ShopSearchElement],
]

for (const [name, constructor] of ELEMENTS) {
  // why: a page that loads the script twice (theme + snippet) must not throw
  if (!customElements.get(name)) customElements.define(name, constructor)
}
