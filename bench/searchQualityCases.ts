/** A labelled query: the page a shopper typing `query` is looking for. */
export interface SearchQualityCase {
  query: string
  expected: string
  kind:
    | 'japanese inner word'
    | 'compound piece'
    | 'katakana'
    | 'latin name'
    | 'prefix'
    | 'typo'
    | 'full-width'
    | 'mixed'
    | 'english'
}

/** Over the sample content in `content/`; each expected page must rank in the top 3. */
export const searchQualityCases: readonly SearchQualityCase[] = [
  { query: '入荷', expected: 'news/yoyaku-shohin-nyuka', kind: 'japanese inner word' },
  { query: '予約商品', expected: 'news/yoyaku-shohin-nyuka', kind: 'japanese inner word' },
  { query: '急須', expected: 'products/kyusu-tokoname', kind: 'japanese inner word' },
  { query: '鉄瓶', expected: 'products/nambu-tekki-kettle', kind: 'japanese inner word' },
  { query: '抹茶碗', expected: 'products/kiyomizu-matcha-chawan', kind: 'japanese inner word' },
  { query: '茶筅', expected: 'products/chasen-takayama', kind: 'japanese inner word' },
  { query: 'リム皿', expected: 'products/hasami-rim-plate', kind: 'japanese inner word' },
  { query: '手ぬぐい', expected: 'products/shinkansen-tenugui', kind: 'japanese inner word' },
  { query: '送料', expected: 'news/soryo-kaitei', kind: 'japanese inner word' },
  { query: '福袋', expected: 'news/fukubukuro-yoyaku', kind: 'japanese inner word' },
  { query: 'お盆', expected: 'news/obon-yasumi', kind: 'japanese inner word' },
  { query: 'キャンセル', expected: 'faq/yoyaku-cancel', kind: 'japanese inner word' },
  { query: '支払い', expected: 'faq/shiharai-hoho', kind: 'japanese inner word' },
  { query: 'のし', expected: 'faq/gift-wrapping', kind: 'japanese inner word' },
  { query: '食洗機', expected: 'faq/shokusenki-denshirenji', kind: 'japanese inner word' },
  { query: '和菓子', expected: 'blog/aki-wagashi-pairing', kind: 'japanese inner word' },
  { query: '幹線', expected: 'products/shinkansen-tenugui', kind: 'compound piece' },
  { query: '珈琲', expected: 'products/ethiopia-yirgacheffe-beans', kind: 'compound piece' },
  { query: '珈琲', expected: 'guides/coffee-mame-hozon', kind: 'compound piece' },
  { query: '焙煎所', expected: 'blog/shinkansen-baisenjo-meguri', kind: 'compound piece' },
  { query: '鉄器', expected: 'products/nambu-tekki-kettle', kind: 'compound piece' },
  { query: '深蒸し', expected: 'products/shizuoka-fukamushi-sencha', kind: 'compound piece' },
  { query: '窯元', expected: 'blog/tokoname-kamamoto', kind: 'compound piece' },
  { query: 'ドリッパー', expected: 'products/hario-v60-dripper', kind: 'katakana' },
  { query: 'マグカップ', expected: 'products/mino-yaki-mug', kind: 'katakana' },
  { query: 'サーバー', expected: 'products/kalita-wave-server', kind: 'katakana' },
  { query: 'ポップアップストア', expected: 'news/tokyo-station-popup', kind: 'katakana' },
  { query: 'ラッピング', expected: 'faq/gift-wrapping', kind: 'katakana' },
  { query: 'Tokoname', expected: 'products/kyusu-tokoname', kind: 'latin name' },
  { query: 'HARIO', expected: 'products/hario-v60-dripper', kind: 'latin name' },
  { query: 'v60', expected: 'products/hario-v60-dripper', kind: 'latin name' },
  { query: 'Porlex', expected: 'products/porlex-hand-grinder', kind: 'latin name' },
  { query: 'Yirgacheffe', expected: 'products/ethiopia-yirgacheffe-beans', kind: 'latin name' },
  { query: 'Kasane', expected: 'products/mino-yaki-mug', kind: 'latin name' },
  { query: 'toko', expected: 'products/kyusu-tokoname', kind: 'prefix' },
  { query: 'yirga', expected: 'products/ethiopia-yirgacheffe-beans', kind: 'prefix' },
  { query: 'kali', expected: 'products/kalita-wave-server', kind: 'prefix' },
  { query: 'ドリッ', expected: 'products/hario-v60-dripper', kind: 'prefix' },
  { query: '抹', expected: 'products/kiyomizu-matcha-chawan', kind: 'prefix' },
  { query: 'tokonama', expected: 'products/kyusu-tokoname', kind: 'typo' },
  { query: 'guatamala', expected: 'blog/latte-art-workshop', kind: 'typo' },
  { query: 'antigue', expected: 'products/guatemala-antigua-beans', kind: 'typo' },
  { query: 'singapure', expected: 'faq/international-orders', kind: 'typo' },
  { query: 'ＴＯＫＯＮＡＭＥ', expected: 'products/kyusu-tokoname', kind: 'full-width' },
  { query: 'ﾄﾞﾘｯﾊﾟｰ', expected: 'products/hario-v60-dripper', kind: 'full-width' },
  { query: 'ﾏｸﾞｶｯﾌﾟ', expected: 'products/mino-yaki-mug', kind: 'full-width' },
  { query: 'Ｖ６０', expected: 'products/hario-v60-dripper', kind: 'full-width' },
  { query: 'Tokoname 急須', expected: 'products/kyusu-tokoname', kind: 'mixed' },
  { query: 'HARIO ドリッパー', expected: 'products/hario-v60-dripper', kind: 'mixed' },
  { query: 'Kalitaサーバー', expected: 'products/kalita-wave-server', kind: 'mixed' },
  { query: '新幹線 手ぬぐい', expected: 'products/shinkansen-tenugui', kind: 'mixed' },
  { query: 'エチオピア 浅煎り', expected: 'products/ethiopia-yirgacheffe-beans', kind: 'mixed' },
  { query: 'pre-order', expected: 'guides/how-to-preorder', kind: 'english' },
  { query: 'latte art', expected: 'blog/latte-art-workshop', kind: 'english' },
  { query: 'ship internationally', expected: 'faq/international-orders', kind: 'english' },
  { query: 'cast iron kettle', expected: 'news/overseas-shipping', kind: 'english' },
]
