import type { GenTable } from '@common/gen/tables';
import { App } from 'antd';
import { useCallback, useEffect } from 'react';
import { synchDb } from '@/api/gen';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { GenCodeDialog } from './GenCodeDialog';
import { requestGenAction, useGenAction } from './genActions';
import { ImportDialog } from './ImportDialog';
import { PreviewDialog } from './PreviewDialog';

/**
 * 代码生成 (tool/gen/index, RuoYi tool/gen; schemas/gen/gen_table.json served by the gen module): the generic list of
 * the imported tables, plus what its buttons open — 导入 (database tables), 预览 (the schema JSON), 生成代码 (download,
 * or write into schemas/ with GEN_WRITE=1) and the 同步 confirmation. 修改 opens the column editor
 * (/tool/gen-edit/index/:tableId, GenEditRedirect).
 */
export default function GenListPage({ resource }: EnginePageProps) {
  const { modal, message } = App.useApp();
  const action = useGenAction();
  const close = useCallback(() => requestGenAction(null), []);

  useEffect(() => {
    if (action?.kind !== 'sync') return;
    requestGenAction(null);
    const { record, refresh } = action;
    modal.confirm({
      title: '系统提示',
      content: `确认要强制同步"${String(record.tableName)}"表结构吗？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        message.success(await synchDb(String(record.tableName)));
        refresh();
      },
    });
  }, [action, modal, message]);

  return (
    <>
      <EntityList resource={resource} />
      <ImportDialog
        open={action?.kind === 'import'}
        onClose={close}
        onImported={() => {
          if (action?.kind === 'import') action.refresh();
        }}
      />
      <PreviewDialog tableId={action?.kind === 'preview' ? action.tableId : null} onClose={close} />
      {action?.kind === 'code' && <GenCodeDialog table={action.record as unknown as GenTable} onClose={close} />}
    </>
  );
}
