import { type BaseRecord, useOne } from '@refinedev/core';
import { Spin } from 'antd';
import { useParams } from 'react-router';
import { EntityList } from '../pages/EntityList';
import type { EnginePageProps } from '../resource';

/**
 * 字典数据 (/system/dict-data/index/:dictId, component 'system/dict/data'): the generic list of sys_dict_data for the
 * dictionary type of :dictId — searched by that type from the start, and new entries start in it.
 */
export default function DictDataPage({ resource }: EnginePageProps) {
  const { dictId } = useParams();
  const { result: type, query } = useOne<BaseRecord>({ resource: 'sys_dict_type', id: dictId ?? '', queryOptions: { enabled: Boolean(dictId) } });
  if (dictId && query.isLoading) return <Spin style={{ display: 'block', padding: 48 }} />;
  const dictType = type?.dictType as string | undefined;
  if (!dictType) return <EntityList resource={resource} />;
  return (
    <EntityList
      key={dictType}
      resource={resource}
      initialSearch={{ dictType }}
      formDefaults={{ dictType, listClass: 'default', isDefault: 'N', status: '0', dictSort: 0 }}
    />
  );
}
