/**
 * The three views the console derives from the server menu tree (common/menu/routes.ts; spec §4 route generation).
 */
import type { RouterMeta } from '@common/menu/routes';

/** A sidebar / top-bar entry: the tree kept as the server sent it, with paths made absolute. */
export interface SidebarItem {
  /** Full path (or the external URL); unique menu key and navigation target. */
  key: string;
  title: string;
  icon: string;
  /** Full path, or the external URL. */
  path: string;
  /** http, https, mailto or tel: opened in a new tab, never routed. */
  external: boolean;
  hidden: boolean;
  children?: SidebarItem[];
  activeMenu?: string;
  /** Default query of the page (parsed from the menu's JSON `query`), to pass along when navigating. */
  query?: Record<string, unknown>;
}

/** One page the router registers: ParentView levels flattened away, paths absolute. */
export interface FlatRoute {
  /** Route name (keep-alive / cached-views key); the full path when the server sent none. */
  name: string;
  fullPath: string;
  /** The component string as given ('InnerLink' or a view path). */
  component: string;
  meta: RouterMeta | null;
  /** Parsed `query` when it is a JSON object text, else undefined. */
  query: Record<string, unknown> | undefined;
  /** Hidden in the menus (itself or an ancestor); the page is still routable. */
  hidden: boolean;
  /** meta.link for InnerLink / iframe pages. */
  link?: string;
  /** True when a 'Layout' ancestor wraps the page; false for a top-level page rendered on its own. */
  inLayout: boolean;
}

export interface ConvertedMenus {
  sidebar: SidebarItem[];
  routes: FlatRoute[];
  topbar: SidebarItem[];
}
