import { type BaseKey, type BaseRecord, useList } from '@refinedev/core';
import { Alert, Button, Card, Space, Spin } from 'antd';
import { useState } from 'react';
import { Access } from '@/components/Access';
import type { ActionContext, EnginePageProps } from '../resource';
import { EntityForm } from './EntityForm';
import { EntityShow } from './EntityShow';

/**
 * The screen of an `x-singleton` schema (关于我们, 隐私政策, 主题设置, 网站设置): its one record's form in place of a
 * list — 修改 when the record exists, 新增 when none was saved yet — with the schema's toolbar buttons (预览).
 * Without the edit permission the record is shown read-only.
 */
export function SingletonPage({ resource: def }: EnginePageProps) {
  const [saves, setSaves] = useState(0);
  const { result, query } = useList<BaseRecord>({ resource: def.name, pagination: { currentPage: 1, pageSize: 1 }, queryOptions: { gcTime: 0 } });
  const record = result.data?.[0];
  const id = record?.[def.primaryKey] as BaseKey | undefined;
  const ctx: ActionContext = { resource: def, selectedRowKeys: [], selectedRows: [], query: {}, refresh: () => void query.refetch() };
  const canWrite = id === undefined ? def.permissions.add : def.permissions.edit;
  const toolbar = (
    <Space>
      {(def.override.toolbar ?? []).map((a) => (
        <Button key={a.key} type={a.type} icon={a.icon} onClick={() => a.onClick(ctx)}>
          {a.label}
        </Button>
      ))}
    </Space>
  );
  let body: React.ReactNode;
  if (query.isLoading) body = <Spin style={{ display: 'block', padding: 48 }} />;
  else if (query.isError) body = <Alert type="error" showIcon message={query.error?.message || '加载失败'} />;
  else {
    const readOnly =
      id === undefined ? <Alert type="info" showIcon message={`尚未设置${def.title}`} /> : <EntityShow resource={def} id={id} onClose={() => {}} />;
    body = canWrite ? (
      <Access permissions={[canWrite]} fallback={readOnly}>
        <EntityForm
          key={`${String(id)}-${saves}`}
          resource={def}
          id={id}
          layout="page"
          onClose={(saved) => {
            if (!saved) return;
            setSaves((n) => n + 1);
            void query.refetch();
          }}
        />
      </Access>
    ) : (
      readOnly
    );
  }
  return (
    <div className="app-container engine-singleton" data-resource={def.name} style={{ padding: 16 }}>
      <Card title={def.title} extra={toolbar}>
        {body}
      </Card>
    </div>
  );
}

export default SingletonPage;
