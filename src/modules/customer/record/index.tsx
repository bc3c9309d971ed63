import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Card, Form, Select, type TableProps } from 'antd';
import { useState } from 'react';
import { type Batch, CARD_KINDS, downloadBatch, listBatches, yuan } from '@/api/customer';
import { useAccess } from '@/components/Access';
import { formatTime } from '../shared/format';
import { PagedTable, SearchForm } from '../shared/SearchTable';
import { StoreSelect, useStores } from '../shared/StoreSelect';
import { usePaged } from '../shared/usePaged';

type BatchQuery = { pageNum: number; pageSize: number; storeId?: number; kind?: number };

/** 发卡记录 (card/record/index): the batches, newest first, with the audited 下载 of the card list (numbers and secrets). */
export default function RecordPage() {
  const { modal } = App.useApp();
  const { can } = useAccess();
  const stores = useStores();
  const [form] = Form.useForm<{ storeId?: number; kind?: number }>();
  const paged = usePaged(listBatches, { pageNum: 1, pageSize: 20 } as BatchQuery);
  const { reload } = paged;
  const [downloading, setDownloading] = useState<number | null>(null);

  const download = (b: Batch) =>
    modal.confirm({
      title: '下载卡号列表',
      content: `列表含 ${b.cardNum} 张卡的卡密，请妥善保管。本次下载将被记录（已下载 ${b.downloadCount} 次）。`,
      okText: '下载',
      cancelText: '取消',
      onOk: async () => {
        setDownloading(b.batchId);
        try {
          await downloadBatch(b);
          await reload();
        } catch {
          // shown by download()
        } finally {
          setDownloading(null);
        }
      },
    });

  const columns: TableProps<Batch>['columns'] = [
    { title: '批次', dataIndex: 'batchId', width: 70 },
    { title: '门店', dataIndex: 'storeName', width: 110 },
    { title: '卡类型', dataIndex: 'kindName', width: 80 },
    { title: '卡号段', key: 'range', render: (_, b) => `${b.cardNoFirst} – ${b.cardNoEnd}`, width: 200 },
    { title: '数量', dataIndex: 'cardNum', width: 80 },
    { title: '单价（元）', dataIndex: 'vipPrice', render: yuan, width: 100 },
    { title: '金额（元）', dataIndex: 'totalFen', render: yuan, width: 120 },
    { title: '有效期（天）', dataIndex: 'validDays', width: 100 },
    { title: '备注', dataIndex: 'remark', ellipsis: true },
    { title: '操作人', dataIndex: 'createByName', width: 90 },
    { title: '发卡时间', dataIndex: 'createTime', render: formatTime, width: 170 },
    { title: '下载次数', dataIndex: 'downloadCount', width: 90 },
    {
      title: '操作',
      key: 'op',
      fixed: 'right',
      width: 90,
      render: (_, b) =>
        can('card:record:download') ? (
          <Button type="link" size="small" icon={<DownloadOutlined />} loading={downloading === b.batchId} onClick={() => download(b)}>
            下载
          </Button>
        ) : null,
    },
  ];

  return (
    <Card className="zy-page">
      <SearchForm form={form} paged={paged} toQuery={(v) => v}>
        {stores?.allStores && (
          <Form.Item label="门店" name="storeId">
            <StoreSelect stores={stores.stores} />
          </Form.Item>
        )}
        <Form.Item label="卡类型" name="kind">
          <Select allowClear placeholder="全部" style={{ width: 120 }} options={Object.entries(CARD_KINDS).map(([v, l]) => ({ value: Number(v), label: l }))} />
        </Form.Item>
      </SearchForm>
      <PagedTable<Batch, BatchQuery> paged={paged} rowKey="batchId" columns={columns} scroll={{ x: 1400 }} />
    </Card>
  );
}
