import { DownloadOutlined } from '@ant-design/icons';
import { Modal } from 'antd';
import { downloadBatch, yuan } from '@/api/customer';
import type { ResourceOverride } from '@/engine/resource';
import { storeSearchField } from '../storeSearch';

/**
 * 发卡记录 (card_batch, card/record/index): the generic list of schemas/customer/card_batch.json with the 门店 filter
 * (headquarters), the card number range, the amounts in yuan, and 下载 per batch — the card list with its secrets,
 * after a warning, counted and audited by the server.
 */
export const batchOverride: ResourceOverride = {
  cells: {
    cardNoFirst: (value, record) => `${String(value ?? '')} – ${String(record.cardNoEnd ?? '')}`,
    vipPrice: (value) => yuan(value as number | null),
    totalFen: (value) => yuan(value as number | null),
  },
  searchFields: { storeId: storeSearchField },
  rowActions: [
    {
      key: 'download',
      label: '下载',
      permission: 'card:record:download',
      icon: <DownloadOutlined />,
      onClick: (record, ctx) => {
        Modal.confirm({
          title: '下载卡号列表',
          content: `列表含 ${record.cardNum} 张卡的卡密，请妥善保管。本次下载将被记录（已下载 ${record.downloadCount ?? 0} 次）。`,
          okText: '下载',
          cancelText: '取消',
          onOk: async () => {
            try {
              await downloadBatch({ batchId: Number(record.batchId), cardNoFirst: String(record.cardNoFirst), cardNoEnd: String(record.cardNoEnd) });
              ctx.refresh();
            } catch {
              // shown by download()
            }
          },
        });
      },
    },
  ],
};
