import { AdminApi, ApiError, UnauthorizedError } from './apiClient.js'
import { actorText } from './auditTexts.js'
import { el, replaceChildren } from './elements.js'
import { reservationScreen, subscriptionScreen } from './recordResources.js'
import { adminToken, clearSession, setAdminToken } from './session.js'
import { activeListView } from './views/activeListView.js'
import { archiveListView } from './views/archiveListView.js'
import { auditView } from './views/auditView.js'
import { noticeView } from './views/noticeView.js'
import { overviewView } from './views/overviewView.js'
import { preorderView } from './views/preorderView.js'
import { personalDataView } from './views/personalDataView.js'
import { signInView } from './views/signInView.js'
import { synonymView } from './views/synonymView.js'
import { stockView } from './views/stockView.js'
import type { ViewContext } from './views/viewContext.js'
import type { TokenGroup } from '../lib/routes.js'

interface Route {
  hash: string
  label: string
  /** The main menu entry this route belongs to. */
  menu: string
  /** The token group its view needs (§5): a token without it is not offered the route. */
  group: TokenGroup
  render: (context: ViewContext) => HTMLElement
}

/** Who is signed in: the token's name (audit trail) and its groups (`POST /api/admin/whoami`). */
interface SignedIn {
  name: string
  groups: TokenGroup[]
}

/** What a token of one group only cannot do, said under the header. */
const MISSING_GROUP_TEXT: Record<TokenGroup, string> = {
  admin:
    'このトークンでできるのは、アーカイブの閲覧・元に戻す・削除です。一覧・ステータス変更・再入荷メール・在庫などの操作には、管理の権限があるトークンが必要です。',
  preorder:
    'このトークンにはアーカイブ・元に戻す・削除の権限がありません。必要な場合はサイトの管理者に権限の追加を依頼してください。',
}

const ROUTES: Route[] = [
  { hash: '#/overview', label: '概要', menu: '#/overview', group: 'admin', render: overviewView },
  {
    hash: '#/reservations',
    group: 'admin',
    label: '予約',
    menu: '#/reservations',
    render: (c) => activeListView(c, reservationScreen),
  },
  {
    hash: '#/reservations/archive',
    group: 'preorder',
    label: 'アーカイブ',
    menu: '#/reservations',
    render: (c) => archiveListView(c, reservationScreen),
  },
  {
    hash: '#/reservations/preorders',
    group: 'admin',
    label: '予約枠・番号検索',
    menu: '#/reservations',
    render: preorderView,
  },
  {
    hash: '#/subscriptions',
    group: 'admin',
    label: '再入荷通知',
    menu: '#/subscriptions',
    render: (c) => activeListView(c, subscriptionScreen),
  },
  {
    hash: '#/subscriptions/archive',
    group: 'preorder',
    label: 'アーカイブ',
    menu: '#/subscriptions',
    render: (c) => archiveListView(c, subscriptionScreen),
  },
  {
    hash: '#/notices',
    label: '再入荷メール',
    menu: '#/notices',
    group: 'admin',
    render: noticeView,
  },
  {
    hash: '#/search',
    label: '検索の同義語',
    menu: '#/search',
    group: 'admin',
    render: synonymView,
  },
  {
    hash: '#/people',
    label: '個人データ',
    menu: '#/people',
    group: 'admin',
    render: personalDataView,
  },
  { hash: '#/stock', label: '在庫', menu: '#/stock', group: 'admin', render: stockView },
  { hash: '#/audit', label: '変更履歴', menu: '#/audit', group: 'admin', render: auditView },
]
const MENU = ROUTES.filter((route) => route.hash === route.menu)

/** The dashboard: sign-in until a token is accepted, then the menu and one view per route. */
export function startDashboard(root: HTMLElement): void {
  const api = new AdminApi()
  const message = el('div', { class: 'message', 'aria-live': 'polite' })
  // why: the message's place at the top of the page, for messages about the page as a whole
  const messageHome = el('div', { class: 'message-home' })
  let signedIn: SignedIn | null = null
  const context: ViewContext = {
    api,
    may: (group) => signedIn?.groups.includes(group) ?? false,
    notify(text, kind = 'info', near, action) {
      if (near?.isConnected) {
        if (message.previousElementSibling !== near) near.after(message)
      } else if (message.parentElement !== messageHome) {
        messageHome.append(message)
      }
      message.className = `message ${kind}${near ? ' near' : ''}`
      message.setAttribute('role', kind === 'error' ? 'alert' : 'status')
      replaceChildren(message, [text, action && ' ', action])
    },
    async attempt(work, near) {
      try {
        return await work()
      } catch (error) {
        if (error instanceof UnauthorizedError) {
          signOut('トークンが受け付けられませんでした。もう一度サインインしてください。')
        } else {
          context.notify(
            error instanceof ApiError ? error.message : '予期しないエラーが発生しました。',
            'error',
            near,
          )
          if (!(error instanceof ApiError)) console.warn(error)
        }
        return null
      }
    },
  }

  function signOut(reason: string | null = null): void {
    clearSession()
    signedIn = null
    api.groups = null
    showSignIn(reason)
  }

  function showSignIn(reason: string | null): void {
    document.title = 'サインイン | ショップ管理'
    root.dataset.route = 'sign-in'
    replaceChildren(root, [header(), el('main', { id: 'main' }, [signInView(checkToken, reason)])])
  }

  /** Asks who the stored token names; answers an error text, or null once it is known. */
  async function identify(): Promise<string | null> {
    try {
      const answer = await api.post('adminWhoami', {})
      signedIn = { name: answer.name, groups: answer.groups }
      api.groups = answer.groups
      return null
    } catch (error) {
      // why: a refused token is forgotten; after a network failure a reload tries it again
      if (!(error instanceof ApiError) || error.status === 401) clearSession()
      return error instanceof ApiError ? error.message : '予期しないエラーが発生しました。'
    }
  }

  async function checkToken(token: string): Promise<string | null> {
    setAdminToken(token)
    const problem = await identify()
    if (problem) return problem
    showRoute()
    return null
  }

  function header(): HTMLElement {
    const missing = signedIn && (['admin', 'preorder'] as const).find((g) => !context.may(g))
    return el('header', { class: 'top' }, [
      el('h1', {}, ['ショップ管理']),
      signedIn &&
        el('p', { class: 'signed-in' }, [
          'サインイン中: ',
          el('strong', { 'data-field': 'staff-name' }, [actorText(signedIn.name)]),
        ]),
      signedIn &&
        el('button', { type: 'button', class: 'signout' }, ['サインアウト'], {
          click: () => signOut(),
        }),
      missing && el('p', { class: 'hint permissions' }, [MISSING_GROUP_TEXT[missing]]),
    ])
  }

  /** The routes the signed-in token may open. */
  function allowedRoutes(): Route[] {
    return ROUTES.filter((route) => context.may(route.group))
  }

  function showRoute(): void {
    if (!adminToken()) return showSignIn(null)
    if (!signedIn) {
      void identify().then((problem) => (problem ? showSignIn(problem) : showRoute()))
      return
    }
    const allowed = allowedRoutes()
    const asked = ROUTES.find((candidate) => candidate.hash === location.hash)
    // why: a route the token may not open (or none) shows the first of its menu it may open
    const route =
      (asked && allowed.includes(asked) ? asked : null) ??
      allowed.find((candidate) => candidate.menu === asked?.menu) ??
      allowed[0]
    if (location.hash !== route.hash) history.replaceState(null, '', route.hash)
    const menus = MENU.flatMap((entry) => {
      const first = allowed.find((candidate) => candidate.menu === entry.menu)
      return first ? [{ label: entry.label, menu: entry.menu, hash: first.hash }] : []
    })
    const menu = menus.find((entry) => entry.menu === route.menu) ?? menus[0]
    document.title = `${route.menu === route.hash ? route.label : `${menu.label}（${route.label}）`} | ショップ管理`
    message.textContent = ''
    message.className = 'message'
    messageHome.append(message)
    root.dataset.route = route.hash
    const tabs = allowed.filter(
      (candidate) =>
        candidate.menu === route.menu &&
        !['#/overview', '#/notices', '#/search'].includes(route.menu),
    )
    replaceChildren(root, [
      header(),
      el('nav', { class: 'menu', 'aria-label': 'メインメニュー' }, [
        el(
          'ul',
          {},
          menus.map((entry) =>
            el('li', {}, [
              el(
                'a',
                { href: entry.hash, 'aria-current': entry.menu === route.menu ? 'page' : false },
                [entry.label],
              ),
            ]),
          ),
        ),
      ]),
      tabs.length > 1 &&
        el('nav', { class: 'tabs', 'aria-label': `${menu.label}の表示` }, [
          el(
            'ul',
            {},
            tabs.map((tab) =>
              el('li', {}, [
                el(
                  'a',
                  { href: tab.hash, 'aria-current': tab.hash === route.hash ? 'page' : false },
                  [tab.hash === tab.menu ? '有効' : tab.label],
                ),
              ]),
            ),
          ),
        ]),
      messageHome,
      el('main', { id: 'main' }, [route.render(context)]),
    ])
  }

  window.addEventListener('hashchange', () => {
    showRoute()
    // why: the menu link pressed was redrawn; the focus goes to the new view's heading, not the
    // page's start
    const heading = root.querySelector<HTMLElement>('main h2')
    heading?.setAttribute('tabindex', '-1')
    heading?.focus()
  })
  showRoute()
}
