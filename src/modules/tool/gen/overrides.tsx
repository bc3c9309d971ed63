import { DownloadOutlined, EyeOutlined, SyncOutlined, UploadOutlined } from '@ant-design/icons';
import type { BaseRecord } from '@refinedev/core';
import { createElement } from 'react';
import { downloadGen, downloadGenBatch } from '@/api/gen';
import type { ResourceOverride } from '@/engine/resource';
import { requestGenAction } from './genActions';

type Row = { tableId: number; tableName: string; entityName: string };

/** 生成代码 of the selection: one table gives its .json, several one .zip of schemas/<entity>.json files (RuoYi batchGenCode). */
async function downloadSelected(rows: BaseRecord[]): Promise<void> {
  const tables = rows as unknown as Row[];
  try {
    if (tables.length === 1) await downloadGen(tables[0]);
    else await downloadGenBatch(tables);
  } catch {
    // the download helper has shown why
  }
}

/**
 * 代码生成 overrides of the generic gen_table screens (schemas/gen/gen_table.json): 修改 goes to the column editor
 * page, per row 预览 / 同步 / 生成代码, in the toolbar 生成代码 (the selection) and 导入 (database tables). The dialogs
 * live in GenListPage.
 */
export const genTableOverride: ResourceOverride = {
  pages: {
    list: () => import('./GenListPage'),
    edit: () => import('./GenEditRedirect'),
  },
  rowActions: [
    {
      key: 'preview',
      label: '预览',
      permission: 'tool:gen:preview',
      icon: createElement(EyeOutlined),
      onClick: (record) => requestGenAction({ kind: 'preview', tableId: Number(record.tableId) }),
    },
    {
      key: 'sync',
      label: '同步',
      permission: 'tool:gen:edit',
      icon: createElement(SyncOutlined),
      onClick: (record, ctx) => requestGenAction({ kind: 'sync', record, refresh: ctx.refresh }),
    },
    {
      key: 'code',
      label: '生成代码',
      permission: 'tool:gen:code',
      icon: createElement(DownloadOutlined),
      onClick: (record) => requestGenAction({ kind: 'code', record }),
    },
  ],
  toolbar: [
    {
      key: 'code',
      label: '生成代码',
      permission: 'tool:gen:code',
      icon: createElement(DownloadOutlined),
      selection: 'multiple',
      onClick: (ctx) => downloadSelected(ctx.selectedRows),
    },
    {
      key: 'import',
      label: '导入',
      permission: 'tool:gen:import',
      icon: createElement(UploadOutlined),
      onClick: (ctx) => requestGenAction({ kind: 'import', refresh: ctx.refresh }),
    },
  ],
};

/** The overrides of this screen by schema $id, found by src/resources/ (every overrides.tsx under src/modules/). */
export const overrides: Record<string, ResourceOverride> = { gen_table: genTableOverride };
