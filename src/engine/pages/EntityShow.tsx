import { type BaseRecord, useOne } from '@refinedev/core';
import { Alert, Button, Card, Descriptions, Modal, Spin } from 'antd';
import type { ReactNode } from 'react';
import { safeHtml } from '@/utils/html';
import type { EngineRecordPageProps } from '../resource';
import { displayValue, relationLabel, renderOf } from './cells';

/** What follows the record's details: the child rows of x-children, which the list page that opened it passes in. */
type ShowProps = EngineRecordPageProps & { after?: ReactNode };

/**
 * Show page: one record as Descriptions (two columns in a two-column form, else one), every property that has a
 * title and is not writeOnly or hidden, formatted as in the table; then `after` (EntityList gives its ChildRows).
 */
export function EntityShow({ resource: def, id, after }: ShowProps) {
  const { result: record, query } = useOne<BaseRecord>({ resource: def.name, id: id ?? '', queryOptions: { enabled: id !== undefined } });
  if (query.isLoading) return <Spin style={{ display: 'block', padding: 48 }} />;
  if (query.isError) return <Alert type="error" showIcon message={query.error?.message || '加载失败'} />;
  const columns = def.schema['x-form']?.columns === 2 ? 2 : 1;
  const items = Object.entries(def.schema.properties)
    .filter(([, p]) => !p.writeOnly && !p['x-ui']?.hidden)
    .map(([name, p]) => {
      const render = renderOf(p);
      const wide = p['x-ui']?.widget === 'richText' || p['x-ui']?.widget === 'textarea';
      const value = relationLabel(p, record, record?.[name]);
      const content =
        p['x-ui']?.widget === 'richText' ? (
          <div dangerouslySetInnerHTML={{ __html: safeHtml(String(value ?? '')) }} />
        ) : (
          displayValue(p, value, render === 'ellipsis' || render === 'switch' ? (p['x-dict'] ? 'dict' : 'text') : render)
        );
      return { key: name, label: p.title ?? name, span: wide ? columns : 1, children: content };
    });
  const details = <Descriptions bordered size="middle" column={columns} items={items} labelStyle={{ width: 120 }} />;
  if (!after || id === undefined) return details;
  return (
    <>
      {details}
      {after}
    </>
  );
}

/** 详情 in a Modal. */
export function EntityShowDialog({ resource: def, id, open, onClose, after }: ShowProps & { open: boolean }) {
  return (
    <Modal
      title={`${def.itemTitle}详情`}
      open={open}
      width={def.schema['x-form']?.width ?? 1200}
      destroyOnHidden
      onCancel={() => onClose(false)}
      footer={<Button onClick={() => onClose(false)}>关 闭</Button>}
    >
      {open && <EntityShow resource={def} id={id} onClose={onClose} after={after} />}
    </Modal>
  );
}

/** Page mode. */
export function EntityShowPage(props: ShowProps) {
  return (
    <Card title={`${props.resource.itemTitle}详情`} extra={<Button onClick={() => props.onClose(false)}>返 回</Button>}>
      <EntityShow {...props} />
    </Card>
  );
}
