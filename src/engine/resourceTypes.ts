import type { DeclaredAction, EngineAction, EntitySchema } from '@common/engine/types';
import type { BaseKey, BaseRecord } from '@refinedev/core';
import type { ComponentType, ReactNode } from 'react';

// What a resource is and how the modules' overrides.tsx and src/resources/ change it. Types only, apart from
// resource.ts (which builds a ResourceDef and adds the declared actions of declaredActions.tsx), so that
// declaredActions.tsx can name them without an import circle.

/** What an action button is handed: the resource, the current selection and search values, and a list refresh. */
export interface ActionContext {
  resource: ResourceDef;
  selectedRowKeys: BaseKey[];
  selectedRows: BaseRecord[];
  /** The applied search values (as sent to the list call). */
  query: Record<string, unknown>;
  refresh: () => void;
}

/** An extra per-row button (after 修改 / 删除). */
export interface RowAction {
  key: string;
  label: string;
  /** Full permission string (e.g. 'system:user:resetPwd'); without one the button shows for everyone. */
  permission?: string;
  danger?: boolean;
  icon?: ReactNode;
  /** Show the button only for some rows. */
  visible?: (record: BaseRecord) => boolean;
  onClick: (record: BaseRecord, ctx: ActionContext) => void | Promise<void>;
  /** A schema-declared `call` (x-rowActions kind "call"): the list runs it (confirm / comment dialog, the call, refresh). */
  call?: DeclaredAction;
}

/** An extra toolbar button (after 新增 / 修改 / 删除 / 导入 / 导出). */
export interface ToolbarAction {
  key: string;
  label: string;
  permission?: string;
  type?: 'primary' | 'default' | 'dashed';
  danger?: boolean;
  icon?: ReactNode;
  /** 'single': enabled with exactly one selected row; 'multiple': with one or more; default: always. */
  selection?: 'single' | 'multiple';
  /** Shown only while this answers true (called while rendering, so it may use hooks; called on every render). */
  visible?: () => boolean;
  onClick: (ctx: ActionContext) => void | Promise<void>;
  /** A schema-declared `call` (x-toolbar kind "call"), run by the list with the selected keys as {ids}. */
  call?: DeclaredAction;
}

/** What a search input replacement receives (a controlled antd form field). */
export interface SearchInputProps {
  value?: unknown;
  onChange?: (value: unknown) => void;
  placeholder?: string;
}

/** A replaced search field (override `searchFields`). */
export interface SearchFieldOverride {
  /** Replaces the input of that x-search field (e.g. a 门店 select filled by a module call). */
  input?: ComponentType<SearchInputProps>;
  /** A hook: false leaves the whole field out (e.g. 门店 only for users who see every store). */
  useVisible?: () => boolean;
}

/** Props of every engine page (generic or a replacement). */
export interface EnginePageProps {
  resource: ResourceDef;
}

/** Props of a create / edit / show replacement: rendered in the dialog (dialog mode) or in place of the list (page mode). */
export interface EngineRecordPageProps extends EnginePageProps {
  /** The record key for edit / show; undefined for create. */
  id?: BaseKey;
  /** Close the dialog or page; `saved` refreshes the list. */
  onClose: (saved: boolean) => void;
}

export type PageLoader<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * The override API of the modules' overrides.tsx and src/resources/ (documented in src/resources/index.ts and in
 * docs/schemas.md "Console side"). Everything is optional; a resource without an entry gets the generic pages.
 */
export interface ResourceOverride {
  /** Replace one page: a lazily loaded module whose default export takes EnginePageProps / EngineRecordPageProps. */
  pages?: {
    list?: PageLoader<EnginePageProps>;
    create?: PageLoader<EngineRecordPageProps>;
    edit?: PageLoader<EngineRecordPageProps>;
    show?: PageLoader<EngineRecordPageProps>;
  };
  /** Extra per-row buttons. */
  rowActions?: RowAction[];
  /** Extra toolbar buttons. */
  toolbar?: ToolbarAction[];
  /** Replace how one column's cells render (property name → render function). */
  cells?: Record<string, (value: unknown, record: BaseRecord) => ReactNode>;
  /** Replace the input of search fields, or show them only to some users (property name → replacement). */
  searchFields?: Record<string, SearchFieldOverride>;
  /** An expanded row under each record (客户资料's 邮寄记录). */
  expandedRow?: (record: BaseRecord) => ReactNode;
  /** Keep every extra row action in the row (default: more than three visible for a row fold into 更多). */
  inlineRowActions?: boolean;
  /** Extra ui:options of form fields (property name → options), e.g. { listClass: { choices: [{ label, value }] } }. */
  fields?: Record<string, Record<string, unknown>>;
  /** Server menu component strings that also open this resource (hidden routes such as 'system/dict/data'). */
  components?: string[];
  /** Called after every successful write from the generic pages (save, delete, switch, import, clean). */
  afterWrite?: (ctx: ActionContext) => void;
  /** Merged into the Refine resource meta. */
  meta?: Record<string, unknown>;
}

export interface ResourceDef {
  /** Resource name = schema $id. */
  name: string;
  title: string;
  /** What one record is called: 新增{itemTitle}, 修改{itemTitle}, {itemTitle}详情 (x-item-title, see itemTitleOf). */
  itemTitle: string;
  schema: EntitySchema;
  primaryKey: string;
  /** Permission string per action (absent = action not offered). */
  permissions: Partial<Record<EngineAction, string>>;
  /** The common prefix of the permission strings ('system:config'), for Refine's access control. */
  permissionPrefix?: string;
  /** The menu route of the list page ('/system/config') and the server menu component string. */
  listPath?: string;
  component?: string;
  /** Every component string that opens this resource (x-menu.component and override aliases). */
  components: string[];
  /** Version column on (default) — updates send `version`. */
  versioned: boolean;
  override: ResourceOverride;
}
