/**
 * The menu tree as the server sends it (getRuleList / getStoreRule `data`, RuoYi getRouters; spec §3 "Menu and route
 * item"): built by server/system/menuTree.ts from the user's menus, turned into sidebar and routes by src/router/.
 */

/** Route meta. `link` is the page shown in an iframe (InnerLink); null when none. */
export interface RouterMeta {
  title: string;
  icon: string;
  noCache: boolean;
  link: string | null;
  /** Pinned tab that cannot be closed. */
  affix?: boolean;
  /** Sidebar entry to highlight while this (usually hidden) page is open. */
  activeMenu?: string;
}

/** One node of the menu tree. `component` is 'Layout', 'ParentView', 'InnerLink' or a view path. */
export interface RouterItem {
  name?: string;
  path: string;
  hidden: boolean;
  redirect?: string;
  component: string;
  /** JSON text of default query parameters, e.g. '{"type":"1"}'. */
  query?: string;
  alwaysShow?: boolean;
  meta: RouterMeta | null;
  children?: RouterItem[];
  /** RuoYi's route-level access lists: the console's route guard honours them when a server sends them. */
  permissions?: string[];
  roles?: string[];
}
