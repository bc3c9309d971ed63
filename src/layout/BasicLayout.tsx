import { useQueryClient } from '@tanstack/react-query';
import { Drawer, Layout } from 'antd';
import Cookies from 'js-cookie';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { EnginePagePrefetch } from '@/router/prefetchPages';
import { rememberQueryClient } from '@/session/forgetUser';
import { useSession } from '@/session/sessionStore';
import { AppMain } from './AppMain';
import { breadcrumbs } from './breadcrumbs';
import { Logo } from './Logo';
import { Navbar } from './Navbar';
import { PlatformWatermark } from './PlatformWatermark';
import { pageInfo } from './pageInfo';
import { Sidebar } from './Sidebar';
import { useLayoutSettings } from './settings/SettingsContext';
import { ThemeDrawer } from './settings/ThemeDrawer';
import { TagsView } from './tagsView/TagsView';
import type { TagView } from './tagsView/tagsModel';
import { useTags } from './tagsView/useTags';
import { TopNav, topKeyOf } from './topNav/TopNav';
import { useDevice } from './useDevice';
import { useStaleVersionReload } from './useStaleVersionReload';
import './layout.css';

/** Spec §9: sidebar 200 px. */
export const SIDEBAR_WIDTH = 200;
const COLLAPSED_WIDTH = 54;
/** RuoYi keeps the sidebar state in this cookie: '1' open, '0' collapsed. */
export const SIDEBAR_COOKIE = 'sidebarStatus';

/**
 * The signed-in frame (spec §2.4): sidebar (or drawer below 992 px), navbar with breadcrumb or top navigation,
 * tag bar, the cached page area, and the layout settings drawer.
 */
export default function BasicLayout() {
  const { sidebar, topbar, routes, platform } = useSession();
  const { settings } = useLayoutSettings();
  const device = useDevice();
  const mobile = device === 'mobile';
  const location = useLocation();
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useState(() => Cookies.get(SIDEBAR_COOKIE) === '0');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [refreshKeys, setRefreshKeys] = useState<ReadonlyMap<string, number>>(new Map());
  // Sign-out empties the pages' data cache; the cache lives in Refine's provider, above this frame.
  const queryClient = useQueryClient();
  useEffect(() => rememberQueryClient(queryClient), [queryClient]);

  const path = location.pathname;
  const page = useMemo(() => pageInfo(path, routes), [path, routes]);
  const active = page?.activeMenu || path;

  // Mobile mode closes the sidebar itself; the menu opens as a drawer instead.
  useEffect(() => {
    if (!mobile) setDrawerOpen(false);
  }, [mobile]);

  // The frame's parts are memoised: their handlers keep their identity so a page switch renders only what shows the
  // current path (menu highlight, breadcrumb, active tab).
  const toggle = useCallback(() => {
    if (mobile) {
      setDrawerOpen((o) => !o);
      return;
    }
    Cookies.set(SIDEBAR_COOKIE, collapsed ? '1' : '0', { sameSite: 'strict' });
    setCollapsed(!collapsed);
  }, [mobile, collapsed]);
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  const closeSettings = useCallback(() => setSettingsOpen(false), []);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

  // Top navigation: the chosen top entry's children fill the sidebar.
  const [topKey, setTopKey] = useState<string | undefined>(() => topKeyOf(topbar, active));
  useEffect(() => {
    const key = topKeyOf(topbar, active);
    if (key) setTopKey(key);
  }, [topbar, active]);
  const sideItems = useMemo(() => {
    if (!settings.topNav) return sidebar;
    const top = topbar.find((t) => t.key === topKey);
    return top?.children?.length ? top.children : top ? [top] : sidebar;
  }, [settings.topNav, sidebar, topbar, topKey]);

  // Tabs: add on visit.
  const tags = useTags(routes);
  const { add, close } = tags;
  useEffect(() => {
    if (!page) return;
    add({ path, fullPath: path + location.search, name: page.name, title: page.title, affix: page.affix, noCache: page.noCache });
  }, [add, page, path, location.search]);

  const keepAlive = useMemo(() => new Set(tags.state.visited.filter((v) => !v.noCache).map((v) => v.path)), [tags.state.visited]);

  const onClose = useCallback(
    (action: Parameters<typeof close>[0], view: TagView) => {
      const landing = close(action, view, path);
      if (landing) navigate(landing);
    },
    [close, path, navigate],
  );
  const onRefresh = useCallback((view: TagView) => {
    setRefreshKeys((m) => new Map(m).set(view.path, (m.get(view.path) ?? 0) + 1));
  }, []);

  // Dynamic title: page title + platform title.
  const platformTitle = platform?.title ?? '志愿填报管理系统';
  useEffect(() => {
    document.title = settings.dynamicTitle && page?.title ? `${page.title} - ${platformTitle}` : platformTitle;
  }, [settings.dynamicTitle, page?.title, platformTitle]);

  useStaleVersionReload(path);

  const sideTheme = settings.sideTheme === 'theme-light' ? 'light' : 'dark';
  const menu = (inDrawer: boolean) => (
    <>
      {settings.sidebarLogo && <Logo collapsed={!inDrawer && collapsed} theme={sideTheme} />}
      <Sidebar items={sideItems} theme={sideTheme} collapsed={!inDrawer && collapsed} active={active} onNavigate={inDrawer ? closeDrawer : undefined} />
    </>
  );
  const siderBackground = sideTheme === 'dark' ? '#001529' : '#fff';

  const topNav = useMemo(
    () => (settings.topNav && !mobile ? <TopNav items={topbar} activeKey={topKey} onSelect={setTopKey} /> : undefined),
    [settings.topNav, mobile, topbar, topKey],
  );
  const crumbs = useMemo(() => breadcrumbs(sidebar, active, page?.title), [sidebar, active, page?.title]);
  const header = (
    <div style={settings.fixedHeader ? { position: 'sticky', top: 0, zIndex: 10 } : undefined}>
      <Navbar collapsed={mobile ? !drawerOpen : collapsed} onToggle={toggle} crumbs={crumbs} topNav={topNav} onOpenSettings={openSettings} mobile={mobile} />
      {settings.tagsView && <TagsView visited={tags.state.visited} activePath={path} onClose={onClose} onRefresh={onRefresh} />}
    </div>
  );

  return (
    <PlatformWatermark text={platform?.watermark}>
      <Layout style={{ minHeight: '100vh' }} className={mobile ? 'zy-mobile' : 'zy-desktop'}>
        {mobile ? (
          <Drawer
            placement="left"
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            width={SIDEBAR_WIDTH}
            closable={false}
            styles={{ body: { padding: 0, background: siderBackground } }}
            className="zy-sidebar-drawer"
          >
            {menu(true)}
          </Drawer>
        ) : (
          <Layout.Sider
            width={SIDEBAR_WIDTH}
            collapsedWidth={COLLAPSED_WIDTH}
            collapsed={collapsed}
            theme={sideTheme}
            className={`zy-sider zy-sider-${sideTheme}`}
            style={{ overflow: 'auto', height: '100vh', position: 'sticky', top: 0 }}
          >
            {menu(false)}
          </Layout.Sider>
        )}
        {/* minWidth 0: a wide page or a long tab bar scrolls inside its own box instead of widening the frame. */}
        <Layout style={{ minWidth: 0 }}>
          {header}
          <Layout.Content style={{ background: '#f0f2f5', minWidth: 0 }}>
            <AppMain keepAlive={keepAlive} refreshKeys={refreshKeys} page={page} routes={routes} />
          </Layout.Content>
        </Layout>
        <ThemeDrawer open={settingsOpen} onClose={closeSettings} />
        {/* Most menu entries open the engine's list page: its code and styles get ready once the frame has settled. */}
        <EnginePagePrefetch />
      </Layout>
    </PlatformWatermark>
  );
}
