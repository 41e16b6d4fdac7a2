/** Example records of the API document (realistic values, checked against their schemas by a test). */

export const EXAMPLE_RESERVATION = {
  id: 'res_3b1f0c9e-8a52-4d7e-9c41-5f2a6b7d8e90',
  name: '山田 花子',
  email: 'hanako@example.com',
  productSlug: 'chasen-takayama',
  status: 'pending',
  notes: '',
  createdAt: '2026-11-22T02:25:00.000Z',
  respondedAt: null,
}

export const EXAMPLE_SUBSCRIPTION = {
  id: 'ntf_1763778300000-4f9c2a7b1e',
  email: 'hanako@example.com',
  productSlug: 'hario-v60-dripper',
  status: 'pending',
  createdAt: '2026-11-22T02:25:00.000Z',
  notifiedAt: null,
}

export const EXAMPLE_SEARCH_RESULT = {
  id: 'news/yoyaku-shohin-nyuka',
  slug: '/news/yoyaku-shohin-nyuka',
  title: '予約商品の入荷のお知らせ',
  description: 'ご予約いただいた商品が入荷しました。',
  tags: ['お知らせ', '予約'],
  createdAt: '2026-10-01',
  excerpt: 'ご予約いただいた商品が入荷しました。店頭受け取りは…',
  highlighted_title: '予約商品の<mark>入荷</mark>のお知らせ',
  highlighted_excerpt: 'ご予約いただいた商品が<mark>入荷</mark>しました。店頭受け取りは…',
  score: 12.5,
}
