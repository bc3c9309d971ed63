import {
  ClearOutlined,
  DeleteOutlined,
  DoubleRightOutlined,
  DownloadOutlined,
  EditOutlined,
  PlusOutlined,
  SortAscendingOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { type BaseKey, type BaseRecord, type CrudFilter, useDeleteMany, useInvalidate, useTable } from '@refinedev/core';
import { App, Button, Card, Dropdown, Form, Space, Spin, Switch, Table, type TableColumnType, type TableProps } from 'antd';
import { type ComponentType, lazy, type ReactNode, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { exportList } from '@/api/engine';
import { request } from '@/api/request';
import { Access, useAccess } from '@/components/Access';
import { Pagination } from '@/components/Pagination';
import { RightToolbar, useColumnVisibility } from '@/components/RightToolbar';
import { handleTree } from '@/utils/format';
import { actionEndpoint, changeField, DEFAULT_PAGE_SIZE, listQuery, readListAhead } from '../dataProvider';
import { whenMatches } from '../declaredActions';
import type { ActionContext, EnginePageProps, EngineRecordPageProps, PageLoader, ResourceDef, RowAction, ToolbarAction } from '../resource';
import { filtersFromValues, listColumnsOf, searchFieldsOf } from '../schema';
import { CallDialog, needsDialog, type PendingCall, sendCall } from './CallDialog';
import { ChildRows } from './ChildRows';
import { displayValue, relationLabel } from './cells';
import { useDragSort } from './DragSort';
import { HeaderFigures } from './HeaderFigures';
import { LinkAction, useLinkActionClass } from './LinkAction';
import { SearchForm } from './SearchForm';

/**
 * The generic list screen of a resource (RuoYi list page): search form (显示/隐藏搜索), toolbar (新增 / 修改 / 删除 /
 * 导入 / 导出 and override buttons) with the right toolbar (刷新, 显示/隐藏列 remembered per resource), the table with
 * row selection, per-row 修改 / 删除 (and override actions), and the pager (10/20/30/50, default 20). Every button is
 * behind its x-permissions string through <Access>; an action without a string is not offered at all.
 */

type Panel = { kind: 'list' } | { kind: 'create' } | { kind: 'edit'; id: BaseKey } | { kind: 'show'; id: BaseKey };

// The record form (RJSF and its validator, about 150 kB compressed), the detail view and the import dialog are not
// needed to show the list: they load on first use, or earlier when the browser is idle after the list is on screen.
const loadForm = () => import('./EntityForm');
const loadShow = () => import('./EntityShow');
const loadImport = () => import('./ImportDialog');
const EntityFormDialog = lazy(() => loadForm().then((m) => ({ default: m.EntityFormDialog })));
const EntityFormPage = lazy(() => loadForm().then((m) => ({ default: m.EntityFormPage })));
const EntityShowDialog = lazy(() => loadShow().then((m) => ({ default: m.EntityShowDialog })));
const EntityShowPage = lazy(() => loadShow().then((m) => ({ default: m.EntityShowPage })));
const ImportDialog = lazy(() => loadImport().then((m) => ({ default: m.ImportDialog })));

/** Fetches the record panels' code once the main thread has nothing else to do (a timeout where there is no idle callback). */
function prefetchPanels(withImport: boolean): () => void {
  const load = () => {
    void loadForm();
    void loadShow();
    if (withImport) void loadImport();
  };
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(load, { timeout: 5000 });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(load, 2000);
  return () => window.clearTimeout(timer);
}

const lazyCache = new WeakMap<PageLoader<EngineRecordPageProps>, ComponentType<EngineRecordPageProps>>();
function lazyPage(loader: PageLoader<EngineRecordPageProps>): ComponentType<EngineRecordPageProps> {
  let page = lazyCache.get(loader);
  if (!page) {
    page = lazy(loader);
    lazyCache.set(loader, page);
  }
  return page;
}

/** Only when the schema declares the permission: then only for users holding it. */
function Gate({ permission, children }: { permission?: string; children: ReactNode }) {
  if (!permission) return null;
  return <Access permissions={[permission]}>{children}</Access>;
}

/** An override button: behind its permission when it has one, for everyone otherwise. */
function MaybeGate({ permission, children }: { permission?: string; children: ReactNode }) {
  if (!permission) return children;
  return <Access permissions={[permission]}>{children}</Access>;
}

/** An override / declared toolbar button: its own visible() (which may use hooks) decides whether it shows at all. */
function ToolbarButton({ action: a, count, onClick }: { action: ToolbarAction; count: number; onClick: () => void }) {
  const visible = a.visible ? a.visible() : true;
  if (!visible) return null;
  return (
    <MaybeGate permission={a.permission}>
      <Button
        type={a.type}
        danger={a.danger}
        icon={a.icon}
        disabled={(a.selection === 'single' && count !== 1) || (a.selection === 'multiple' && count === 0)}
        onClick={onClick}
      >
        {a.label}
      </Button>
    </MaybeGate>
  );
}

// Made once: the row buttons' icons and styles are the same objects on every render.
const EDIT_ICON = <EditOutlined />;
const DELETE_ICON = <DeleteOutlined />;
const LINK_CELL_STYLE = { padding: 0 };
const MENU_ITEM_STYLE = { textAlign: 'left' } as const;

/** Column widths by render when x-list gives none. */
const DEFAULT_WIDTH: Partial<Record<string, number>> = { ellipsis: 140, datetime: 160, date: 110, image: 90, dict: 100, switch: 90, money: 120, link: 200 };

/** Width of the 操作 column for one line of small link buttons with icons (14 px a character, icon and padding). */
export function actionColumnWidth(labels: readonly string[]): number {
  return labels.reduce((sum, label) => sum + label.length * 14 + 34, 24);
}

export const deleteConfirmText = (title: string, ids: BaseKey[]) => `是否确认删除${title}编号为"${ids.join(',')}"的数据项？`;

/** On / off values of a status switch column: boolean, or the first (on) and second (off) enum values. */
function switchValues(def: ResourceDef, name: string): [unknown, unknown] {
  const prop = def.schema.properties[name];
  const e = prop?.enum ?? [];
  return e.length >= 2 ? [e[0], e[1]] : [true, false];
}

export interface EntityListProps extends EnginePageProps {
  /** Search values applied from the start (and kept by 重置), e.g. the dictionary type of a dictionary-data screen. */
  initialSearch?: Record<string, unknown>;
  /** Search values the page was opened with (a link's ?status=0): applied and shown at first, cleared by 重置. */
  linkSearch?: Record<string, unknown>;
  /** Values a new record starts with. */
  formDefaults?: Record<string, unknown>;
}

export function EntityList({ resource: def, initialSearch, linkSearch, formDefaults }: EntityListProps) {
  const { message, modal } = App.useApp();
  const [form] = Form.useForm();
  const schema = def.schema;
  const pk = def.primaryKey;
  const tree = schema['x-tree'];
  const searchFields = useMemo(() => searchFieldsOf(schema), [schema]);
  const listColumns = useMemo(() => listColumnsOf(schema), [schema]);
  const [showSearch, setShowSearch] = useState(true);
  const [hidden, setHidden] = useColumnVisibility(def.name);
  const [selectedRowKeys, setSelectedRowKeys] = useState<BaseKey[]>([]);
  const [selectedRows, setSelectedRows] = useState<BaseRecord[]>([]);
  const [panel, setPanel] = useState<Panel>({ kind: 'list' });
  const [importOpen, setImportOpen] = useState(false);
  // Mounted from its first opening on (and kept, so it closes with its animation and keeps its state like before).
  const [importUsed, setImportUsed] = useState(false);
  const [expanded, setExpanded] = useState<BaseKey[] | null>(null);
  const [pendingCall, setPendingCall] = useState<PendingCall | null>(null);
  const pageMode = schema['x-form']?.mode === 'page';
  const [startSearch] = useState(() => (linkSearch && Object.keys(linkSearch).length ? { ...linkSearch, ...initialSearch } : initialSearch));

  const [firstQuery] = useState(() => {
    const first = {
      pagination: { currentPage: 1, pageSize: DEFAULT_PAGE_SIZE, mode: tree ? ('off' as const) : ('server' as const) },
      filters: (startSearch ? filtersFromValues(searchFields, startSearch) : []) as CrudFilter[],
      sorters: [],
    };
    // The first page is asked for now, while the page renders: useTable asks only from an effect, once the page has
    // been drawn, and its getList then finds this answer waiting (readListAhead). Issue 15, the first visit of a page.
    readListAhead(schema, first);
    return first;
  });
  const { tableQuery, result, currentPage, setCurrentPage, pageSize, setPageSize, sorters, setSorters, filters, setFilters } = useTable<BaseRecord>({
    resource: def.name,
    pagination: firstQuery.pagination,
    filters: { initial: firstQuery.filters, defaultBehavior: 'replace' },
    sorters: { initial: firstQuery.sorters },
    syncWithLocation: false,
  });
  const rows = useMemo(() => {
    const data = result.data ?? [];
    return tree ? (handleTree(data, pk, tree.parent) as BaseRecord[]) : data;
  }, [result.data, tree, pk]);
  // A new page of rows: the old selection no longer applies. Compared with the rows last seen rather than run on every
  // effect start: a kept tab's effects start again each time it is shown, and that must neither drop the selection nor
  // render the whole list again.
  const rowsSeen = useRef(rows);
  useEffect(() => {
    if (rowsSeen.current === rows) return;
    rowsSeen.current = rows;
    setSelectedRowKeys((keys) => (keys.length > 0 ? [] : keys));
    setSelectedRows((list) => (list.length > 0 ? [] : list));
  }, [rows]);

  // After the first rows are on screen, not while they are awaited: the idle time of a pending request is not free.
  const canImport = Boolean(def.permissions.import);
  const listShown = result.data !== undefined;
  useEffect(() => (listShown ? prefetchPanels(canImport) : undefined), [listShown, canImport]);

  // The list's key, not just the table's query: what else reads under it (x-header figures) is read again too.
  const invalidate = useInvalidate();
  const refresh = useCallback(() => {
    void invalidate({ resource: def.name, invalidates: ['list'], invalidationOptions: { cancelRefetch: true } });
  }, [invalidate, def.name]);
  const query = useMemo(() => listQuery(schema, { pagination: { mode: 'off' }, sorters, filters }), [schema, sorters, filters]);
  const ctx: ActionContext = { resource: def, selectedRowKeys, selectedRows, query, refresh };
  /** After any write: the list again, and the resource's afterWrite hook (e.g. dictionaries forget their cache). */
  const written = () => {
    refresh();
    def.override.afterWrite?.(ctx);
  };
  // x-dragSort: a drag handle per row while the list is in its default order (DragSort.tsx).
  const drag = useDragSort(def, rows, sorters.length === 0 && !tree, written);

  const { mutateAsync: deleteMany } = useDeleteMany();
  const confirmDelete = (ids: BaseKey[]) => {
    if (ids.length === 0) return;
    modal.confirm({
      title: '系统提示',
      content: deleteConfirmText(def.itemTitle, ids),
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await deleteMany({ resource: def.name, ids, successNotification: false, errorNotification: false, mutationMode: 'pessimistic' });
          message.success('删除成功');
          setSelectedRowKeys([]);
          setSelectedRows([]);
          written();
        } catch {
          // The http layer has shown the refusal.
        }
      },
    });
  };

  const toggleSwitch = (record: BaseRecord, name: string, checked: boolean) => {
    const [on, off] = switchValues(def, name);
    const text = checked ? '启用' : '停用';
    modal.confirm({
      title: '系统提示',
      content: `确认要"${text}"${def.itemTitle}编号为"${record[pk]}"的数据项吗？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await changeField(schema, record, name, checked ? on : off);
          message.success(`${text}成功`);
        } catch {
          // Toasted by the http layer; the switch shows the stored value again after the refresh.
        }
        written();
      },
    });
  };

  const search = () => {
    const values = form.getFieldsValue() as Record<string, unknown>;
    setFilters(filtersFromValues(searchFields, values) as CrudFilter[], 'replace');
    setCurrentPage(1);
  };
  const reset = () => {
    form.resetFields();
    // A link's search values go; the page's own initial ones (initialSearch) stay.
    for (const name of Object.keys(linkSearch ?? {})) if (!(initialSearch && name in initialSearch)) form.setFieldValue(name, undefined);
    setFilters(initialSearch ? filtersFromValues(searchFields, initialSearch) : [], 'replace');
    setSorters([]);
    setCurrentPage(1);
  };
  const openEdit = (id: BaseKey) => setPanel({ kind: 'edit', id });
  /** A declared `call` (workflow step): its dialog first when it has a confirm or a comment, else at once. */
  const startCall = (action: NonNullable<RowAction['call']>, record: BaseRecord | undefined, ids: BaseKey[]) => {
    const pending: PendingCall = { action, record, ids };
    if (needsDialog(action)) {
      setPendingCall(pending);
      return;
    }
    sendCall(pending).then(
      (msg) => {
        message.success(msg);
        written();
      },
      () => {
        // The http layer has shown the refusal; nothing changed.
      },
    );
  };
  // The memoised search form and the memoised columns get handlers that stay the same and call the latest ones (which
  // see the current selection, sorters and query): the columns' cell renders then keep their identity, so rc-table
  // does not render every cell again on each selection.
  const handlers = useRef({ search, reset, openEdit, confirmDelete, toggleSwitch, startCall, ctx });
  useLayoutEffect(() => {
    handlers.current = { search, reset, openEdit, confirmDelete, toggleSwitch, startCall, ctx };
  });
  const onSearch = useCallback(() => handlers.current.search(), []);
  const onReset = useCallback(() => handlers.current.reset(), []);

  const doExport = async () => {
    try {
      await exportList(actionEndpoint(schema, 'export').url, def.title, query);
    } catch {
      // download() has shown the message.
    }
  };

  const confirmClean = () => {
    modal.confirm({
      title: '系统提示',
      content: `是否确认清空所有${def.itemTitle}数据项？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        const { url, method } = actionEndpoint(schema, 'clean');
        try {
          await request({ url, method });
          message.success('清空成功');
          written();
        } catch {
          // The http layer has shown the refusal.
        }
      },
    });
  };

  const close = (saved: boolean) => {
    setPanel({ kind: 'list' });
    if (saved) written();
  };

  // Row buttons: one permission check per table instead of an <Access> per cell, and the light link button.
  const { allowed } = useAccess();
  const linkClass = useLinkActionClass();

  const columns = useMemo(() => {
    const sortOrder = (name: string) => {
      const s = sorters.find((x) => x.field === name);
      return s ? (s.order === 'asc' ? 'ascend' : 'descend') : null;
    };
    const may = (permission: string | undefined) => Boolean(permission) && allowed({ permissions: [permission as string] });
    const canShow = may(def.permissions.query);
    const canEdit = may(def.permissions.edit);
    const canRemove = may(def.permissions.remove);
    const cols: TableColumnType<BaseRecord>[] = listColumns
      .filter((c) => !hidden.includes(c.name) && (!c.list.permission || may(c.list.permission)))
      .map((c) => {
        const render = c.list.render ?? 'text';
        const custom = def.override.cells?.[c.name];
        return {
          key: c.name,
          dataIndex: c.name,
          title: c.title,
          width: c.list.width ?? DEFAULT_WIDTH[render] ?? 140,
          fixed: c.list.fixed,
          align: 'center',
          ellipsis: render === 'ellipsis' ? { showTitle: false } : undefined,
          sorter: c.prop['x-sortable'] ? true : undefined,
          sortOrder: c.prop['x-sortable'] ? sortOrder(c.name) : undefined,
          sortDirections: ['descend', 'ascend'],
          render: (value: unknown, record: BaseRecord) => {
            if (custom) return custom(value, record);
            if (render === 'switch') {
              const [on] = switchValues(def, c.name);
              const editable = def.permissions.edit;
              return (
                <Switch
                  size="small"
                  checked={value === on}
                  aria-label={`${c.title}${record[pk]}`}
                  disabled={!editable}
                  onChange={(checked) => handlers.current.toggleSwitch(record, c.name, checked)}
                />
              );
            }
            if (c.name === pk && def.permissions.query) {
              if (!canShow) return String(value ?? '');
              return (
                <LinkAction classes={linkClass} style={LINK_CELL_STYLE} title="详情" onClick={() => setPanel({ kind: 'show', id: value as BaseKey })}>
                  {String(value ?? '')}
                </LinkAction>
              );
            }
            return displayValue(c.prop, relationLabel(c.prop, record, value), render);
          },
        } satisfies TableColumnType<BaseRecord>;
      });
    const rowActions = def.override.rowActions ?? [];
    // x-rowWhen: the built-in 修改 / 删除 only on rows whose values match (备忘录: the author's own notes).
    const rowWhen = schema['x-rowWhen'];
    const editOn = (record: BaseRecord) => canEdit && whenMatches(rowWhen?.edit, record);
    const removeOn = (record: BaseRecord) => canRemove && whenMatches(rowWhen?.remove, record);
    if (def.permissions.edit || def.permissions.remove || rowActions.length > 0) {
      // More than one extra action shown for a row folds them into 更多 (as RuoYi's user list), so the column stays
      // one line — unless the schema (x-rowActionsInline) or the override (inlineRowActions) keeps them in the row.
      const inlineAll = Boolean(schema['x-rowActionsInline'] || def.override.inlineRowActions);
      const longest = rowActions.reduce((a, b) => (b.label.length > a.length ? b.label : a), '');
      const inline = [
        ...(def.permissions.edit ? ['修改'] : []),
        ...(def.permissions.remove ? ['删除'] : []),
        ...(inlineAll || rowActions.length <= 1 ? rowActions.map((a) => a.label) : [longest.length > 2 ? longest : '更多']),
      ];
      // An override action without a permission string is for everyone (MaybeGate).
      const visibleActions = (record: BaseRecord) => rowActions.filter((a) => (!a.permission || may(a.permission)) && (!a.visible || a.visible(record)));
      const actionButton = (a: RowAction, record: BaseRecord, block = false) => (
        <LinkAction
          key={a.key}
          classes={linkClass}
          danger={a.danger}
          icon={a.icon}
          block={block}
          style={block ? MENU_ITEM_STYLE : undefined}
          onClick={() => (a.call ? handlers.current.startCall(a.call, record, [record[pk] as BaseKey]) : a.onClick(record, handlers.current.ctx))}
        >
          {a.label}
        </LinkAction>
      );
      const extras = (record: BaseRecord) => {
        const shown = visibleActions(record);
        if (inlineAll || shown.length <= 1) return shown.map((a) => actionButton(a, record));
        return (
          <Dropdown
            trigger={['click']}
            popupRender={() => (
              <div className="ant-dropdown-menu" style={{ display: 'flex', flexDirection: 'column', padding: 4 }}>
                {shown.map((a) => actionButton(a, record, true))}
              </div>
            )}
          >
            <Button type="link" size="small" icon={<DoubleRightOutlined />}>
              更多
            </Button>
          </Dropdown>
        );
      };
      // Not fixed to the right: a fixed column lies over the data whenever the table is wider than the page, which
      // hid 状态 and 创建时间 at 1440 px. The table scrolls sideways as a whole instead (see scroll.x below).
      cols.push({
        key: '__actions',
        title: '操作',
        align: 'center',
        width: actionColumnWidth(inline),
        className: 'small-padding fixed-width',
        render: (_v, record) => (
          <Space size={0} style={{ whiteSpace: 'nowrap' }}>
            {editOn(record) && (
              <LinkAction classes={linkClass} icon={EDIT_ICON} onClick={() => handlers.current.openEdit(record[pk] as BaseKey)}>
                修改
              </LinkAction>
            )}
            {removeOn(record) && (
              <LinkAction classes={linkClass} danger icon={DELETE_ICON} onClick={() => handlers.current.confirmDelete([record[pk] as BaseKey])}>
                删除
              </LinkAction>
            )}
            {extras(record)}
          </Space>
        ),
      });
    }
    return cols;
  }, [listColumns, hidden, def, schema, pk, sorters, allowed, linkClass]);

  // The same objects while nothing they hold changes: antd builds the selection column (a checkbox per row) again for
  // every new rowSelection object.
  const scroll = useMemo(() => ({ x: columns.reduce((sum, c) => sum + Number(c.width ?? 140), 48) }), [columns]);
  const rowSelection = useMemo<TableProps<BaseRecord>['rowSelection']>(
    () => ({
      selectedRowKeys,
      onChange: (keys, selected) => {
        setSelectedRowKeys(keys as BaseKey[]);
        setSelectedRows(selected);
      },
    }),
    [selectedRowKeys],
  );

  const onTableChange: TableProps<BaseRecord>['onChange'] = (_p, _f, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = s?.columnKey ?? s?.field;
    if (s?.order && field) setSorters([{ field: String(field), order: s.order === 'ascend' ? 'asc' : 'desc' }]);
    else setSorters([]);
  };

  const allKeys = useMemo(() => {
    const keys: BaseKey[] = [];
    const walk = (list: BaseRecord[]) => {
      for (const r of list) {
        if (Array.isArray(r.children) && r.children.length > 0) {
          keys.push(r[pk] as BaseKey);
          walk(r.children as BaseRecord[]);
        }
      }
    };
    walk(rows);
    return keys;
  }, [rows, pk]);

  const expandedRow = def.override.expandedRow;
  const editPage = def.override.pages?.edit ? lazyPage(def.override.pages.edit) : null;
  const createPage = def.override.pages?.create ? lazyPage(def.override.pages.create) : null;
  const showPage = def.override.pages?.show ? lazyPage(def.override.pages.show) : null;
  const Replacement = panel.kind === 'create' ? createPage : panel.kind === 'edit' ? editPage : panel.kind === 'show' ? showPage : null;
  const panelId = panel.kind === 'edit' || panel.kind === 'show' ? panel.id : undefined;
  const inPage = pageMode && panel.kind !== 'list';

  const toolbar = (
    <Space wrap size={8}>
      <Gate permission={def.permissions.add}>
        <Button color="primary" variant="filled" icon={<PlusOutlined />} onClick={() => setPanel({ kind: 'create' })}>
          新增
        </Button>
      </Gate>
      <Gate permission={def.permissions.edit}>
        <Button color="green" variant="filled" icon={<EditOutlined />} disabled={selectedRowKeys.length !== 1} onClick={() => openEdit(selectedRowKeys[0])}>
          修改
        </Button>
      </Gate>
      <Gate permission={def.permissions.remove}>
        <Button
          color="danger"
          variant="filled"
          icon={<DeleteOutlined />}
          disabled={selectedRowKeys.length === 0}
          onClick={() => confirmDelete(selectedRowKeys)}
        >
          删除
        </Button>
      </Gate>
      <Gate permission={def.permissions.import}>
        <Button
          color="default"
          variant="filled"
          icon={<UploadOutlined />}
          onClick={() => {
            setImportUsed(true);
            setImportOpen(true);
          }}
        >
          导入
        </Button>
      </Gate>
      <Gate permission={def.permissions.export}>
        <Button color="orange" variant="filled" icon={<DownloadOutlined />} onClick={doExport}>
          导出
        </Button>
      </Gate>
      <Gate permission={def.permissions.clean}>
        <Button color="danger" variant="filled" icon={<ClearOutlined />} onClick={confirmClean}>
          清空
        </Button>
      </Gate>
      {tree && (
        <Button color="default" variant="filled" icon={<SortAscendingOutlined />} onClick={() => setExpanded((e) => (e && e.length > 0 ? [] : allKeys))}>
          展开/折叠
        </Button>
      )}
      {(def.override.toolbar ?? []).map((a) => (
        <ToolbarButton
          key={a.key}
          action={a}
          count={selectedRowKeys.length}
          onClick={() => (a.call ? startCall(a.call, undefined, selectedRowKeys) : a.onClick(ctx))}
        />
      ))}
    </Space>
  );

  // x-children under a record's 详情: the child lists are this very page (EntityList), handed down, not imported back.
  const childRows = def.schema['x-children']?.length && panelId !== undefined ? <ChildRows resource={def} id={panelId} List={EntityList} /> : undefined;

  return (
    <div className="app-container engine-list" data-resource={def.name} style={{ padding: 16 }}>
      {inPage && (
        <Suspense fallback={<Spin />}>
          {Replacement ? (
            <Replacement resource={def} id={panelId} onClose={close} />
          ) : panel.kind === 'show' ? (
            <EntityShowPage resource={def} id={panelId} onClose={close} after={childRows} />
          ) : (
            <EntityFormPage resource={def} id={panelId} onClose={close} defaults={formDefaults} />
          )}
        </Suspense>
      )}
      {schema['x-header'] && !inPage && (
        <HeaderFigures resource={def.name} spec={schema['x-header']} query={query} listAnswer={tableQuery.data?.answer} listLoading={tableQuery.isFetching} />
      )}
      <Card style={{ display: inPage ? 'none' : undefined }}>
        <SearchForm
          form={form}
          fields={searchFields}
          onSearch={onSearch}
          onReset={onReset}
          hidden={!showSearch}
          initialValues={startSearch}
          overrides={def.override.searchFields}
        />
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', marginBottom: 12, gap: 8 }}>
          {toolbar}
          <RightToolbar
            showSearch={showSearch}
            onToggleSearch={searchFields.length > 0 ? () => setShowSearch((s) => !s) : undefined}
            onRefresh={refresh}
            columns={listColumns
              .filter((c) => !c.list.permission || allowed({ permissions: [c.list.permission] }))
              .map((c) => ({ key: c.name, title: c.title }))}
            hidden={hidden}
            onHiddenChange={setHidden}
          />
        </div>
        {drag.wrap(
          <Table<BaseRecord>
            rowKey={pk}
            size="middle"
            loading={tableQuery.isFetching}
            columns={drag.columns(columns)}
            components={drag.components}
            dataSource={rows}
            pagination={false}
            // Columns keep their widths (ellipsis cells cut at theirs); a narrow window scrolls sideways.
            scroll={scroll}
            tableLayout="fixed"
            onChange={onTableChange}
            expandable={
              tree
                ? { expandedRowKeys: expanded ?? undefined, onExpandedRowsChange: (keys) => setExpanded([...keys] as BaseKey[]) }
                : expandedRow
                  ? { expandedRowRender: expandedRow }
                  : undefined
            }
            rowSelection={rowSelection}
          />,
        )}
        {!tree && (
          <Pagination
            current={currentPage}
            pageSize={pageSize}
            total={result.total ?? 0}
            onChange={(page, size) => {
              if (size !== pageSize) setPageSize(size);
              setCurrentPage(page);
            }}
          />
        )}
      </Card>
      <Suspense fallback={null}>
        {!pageMode && (panel.kind === 'create' || panel.kind === 'edit') && !Replacement && (
          <EntityFormDialog resource={def} id={panelId} open onClose={close} />
        )}
        {!pageMode && panel.kind === 'show' && !Replacement && <EntityShowDialog resource={def} id={panelId} open onClose={close} after={childRows} />}
        {!pageMode && Replacement && <Replacement resource={def} id={panelId} onClose={close} />}
        {pendingCall && (
          <CallDialog
            key={pendingCall.action.key}
            pending={pendingCall}
            onDone={(msg) => {
              setPendingCall(null);
              if (msg === null) return;
              message.success(msg);
              written();
            }}
          />
        )}
        {def.permissions.import && importUsed && (
          <ImportDialog
            resource={def}
            open={importOpen}
            onClose={(imported) => {
              setImportOpen(false);
              if (imported) written();
            }}
          />
        )}
      </Suspense>
    </div>
  );
}

export default EntityList;
