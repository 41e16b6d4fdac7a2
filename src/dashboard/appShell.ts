import { AdminApi, ApiError, UnauthorizedError } from './apiClient.js'
import { askPreorderToken } from './dialogs.js'
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
import type { RouteAnswer } from '../lib/routes.js'

interface Route {
  hash: string
  label: string
  /** The main menu entry this route belongs to. */
  menu: string
  /** `stats`: the statistics answered at sign-in, once, for the first view shown. */
  render: (context: ViewContext, stats: RouteAnswer<'adminStats'> | null) => HTMLElement
}

const ROUTES: Route[] = [
  { hash: '#/overview', label: '概要', menu: '#/overview', render: overviewView },
  {
    hash: '#/reservations',
    label: '予約',
    menu: '#/reservations',
    render: (c) => activeListView(c, reservationScreen),
  },
  {
    hash: '#/reservations/archive',
    label: 'アーカイブ',
    menu: '#/reservations',
    render: (c) => archiveListView(c, reservationScreen),
  },
  {
    hash: '#/reservations/preorders',
    label: '予約枠・番号検索',
    menu: '#/reservations',
    render: preorderView,
  },
  {
    hash: '#/subscriptions',
    label: '再入荷通知',
    menu: '#/subscriptions',
    render: (c) => activeListView(c, subscriptionScreen),
  },
  {
    hash: '#/subscriptions/archive',
    label: 'アーカイブ',
    menu: '#/subscriptions',
    render: (c) => archiveListView(c, subscriptionScreen),
  },
  { hash: '#/notices', label: '再入荷メール', menu: '#/notices', render: noticeView },
  { hash: '#/search', label: '検索の同義語', menu: '#/search', render: synonymView },
  { hash: '#/people', label: '個人データ', menu: '#/people', render: personalDataView },
  { hash: '#/stock', label: '在庫', menu: '#/stock', render: stockView },
  { hash: '#/audit', label: '変更履歴', menu: '#/audit', render: auditView },
]
const MENU = ROUTES.filter((route) => route.hash === route.menu)

/** The dashboard: sign-in until a token is accepted, then the menu and one view per route. */
export function startDashboard(root: HTMLElement): void {
  const api = new AdminApi({ askPreorderToken })
  const message = el('div', { class: 'message', 'aria-live': 'polite' })
  // why: the message's place at the top of the page, for messages about the page as a whole
  const messageHome = el('div', { class: 'message-home' })
  let signInStats: RouteAnswer<'adminStats'> | null = null
  const context: ViewContext = {
    api,
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
    showSignIn(reason)
  }

  function showSignIn(reason: string | null): void {
    document.title = 'サインイン | ショップ管理'
    root.dataset.route = 'sign-in'
    replaceChildren(root, [
      header(false),
      el('main', { id: 'main' }, [signInView(checkToken, reason)]),
    ])
  }

  async function checkToken(token: string): Promise<string | null> {
    setAdminToken(token)
    try {
      signInStats = await api.post('adminStats', {})
    } catch (error) {
      clearSession()
      return error instanceof ApiError ? error.message : '予期しないエラーが発生しました。'
    }
    if (!location.hash || !ROUTES.some((route) => route.hash === location.hash)) {
      history.replaceState(null, '', '#/overview')
    }
    showRoute()
    return null
  }

  function header(signedIn: boolean): HTMLElement {
    return el('header', { class: 'top' }, [
      el('h1', {}, ['ショップ管理']),
      signedIn &&
        el('button', { type: 'button', class: 'signout' }, ['サインアウト'], {
          click: () => signOut(),
        }),
    ])
  }

  function showRoute(): void {
    if (!adminToken()) return showSignIn(null)
    const route = ROUTES.find((candidate) => candidate.hash === location.hash) ?? ROUTES[0]
    const menu = MENU.find((entry) => entry.hash === route.menu) ?? MENU[0]
    document.title = `${route.menu === route.hash ? route.label : `${menu.label}（${route.label}）`} | ショップ管理`
    message.textContent = ''
    message.className = 'message'
    messageHome.append(message)
    // why: the statistics fetched to check the token are shown, not asked for a second time
    const stats = signInStats
    signInStats = null
    root.dataset.route = route.hash
    const tabs = ROUTES.filter(
      (candidate) =>
        candidate.menu === route.menu &&
        !['#/overview', '#/notices', '#/search'].includes(route.menu),
    )
    replaceChildren(root, [
      header(true),
      el('nav', { class: 'menu', 'aria-label': 'メインメニュー' }, [
        el(
          'ul',
          {},
          MENU.map((entry) =>
            el('li', {}, [
              el(
                'a',
                { href: entry.hash, 'aria-current': entry.hash === route.menu ? 'page' : false },
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
      el('main', { id: 'main' }, [route.render(context, stats)]),
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
