import type { ReleaseResult } from '@common/customer/cards';
import { Alert, App, Button, Card, Col, Descriptions, Form, Input, InputNumber, Progress, Radio, Row, Space, Statistic } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { CARD_KINDS, type ReleaseInfo, releaseCards, releaseInfo, yuan } from '@/api/customer';
import { Access } from '@/components/Access';
import { StoreSelect } from '../shared/StoreSelect';

interface FormValues {
  kind: number;
  card_num: number;
  remark?: string;
}

/**
 * 发卡 (menu component card/release/index): a store orders cards of a kind at the kind's price; the cost comes off the
 * store balance in the same transaction that makes the cards. A large batch shows its progress as it is made.
 */
export default function ReleasePage() {
  const { modal, message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [storeId, setStoreId] = useState<number>();
  const [info, setInfo] = useState<ReleaseInfo | null>(null);
  const [progress, setProgress] = useState<{ made: number; total: number } | null>(null);
  const [result, setResult] = useState<ReleaseResult | null>(null);
  const [busy, setBusy] = useState(false);
  const kind = Form.useWatch('kind', form) ?? 1;
  const cardNum = Form.useWatch('card_num', form) ?? 0;

  const load = useCallback(async (id?: number) => {
    try {
      const i = await releaseInfo(id);
      setInfo(i);
      setStoreId(i.storeId);
    } catch {
      // shown by the http layer
    }
  }, []);
  useEffect(() => {
    load();
  }, [load]);

  const price = info?.kinds.find((k) => k.kind === kind)?.vip_price ?? 0;
  const total = price * (cardNum || 0);

  const submit = async () => {
    if (!info) return;
    const v = await form.validateFields();
    if (total > info.storeBalance) {
      message.error(`门店余额不足：需要 ${yuan(total)} 元，当前余额 ${yuan(info.storeBalance)} 元`);
      return;
    }
    modal.confirm({
      title: '确认发卡',
      content: `为「${info.storeName}」发放${CARD_KINDS[v.kind]} ${v.card_num} 张，单价 ${yuan(price)} 元，共 ${yuan(total)} 元，将从门店余额中扣除。`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        setBusy(true);
        setResult(null);
        setProgress({ made: 0, total: v.card_num });
        try {
          const res = await releaseCards({ storeId: info.storeId, kind: v.kind, card_num: v.card_num, vip_price: price, remark: v.remark }, (made, all) =>
            setProgress({ made, total: all }),
          );
          setProgress({ made: res.data.card_num, total: res.data.card_num });
          setResult(res.data);
          message.success(res.msg);
          form.resetFields(['card_num', 'remark']);
          await load(info.storeId);
        } catch {
          setProgress(null);
        } finally {
          setBusy(false);
        }
      },
    });
  };

  return (
    <Card title="发卡" className="zy-page">
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        {info && info.stores.length > 1 && (
          <Space>
            <span>发卡门店</span>
            <StoreSelect
              stores={info.stores.map((s) => ({ storeId: s.storeId, storeName: s.storeName, kind: '' }))}
              value={storeId}
              allowClear={false}
              onChange={(v) => load(v)}
              style={{ width: 200 }}
            />
          </Space>
        )}
        <Row gutter={16}>
          <Col xs={12} md={6}>
            <Statistic title="门店余额（元）" value={info ? yuan(info.storeBalance) : '--'} />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title="未使用志愿卡" value={info?.no_vip_num ?? '--'} suffix="张" />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title="未使用升学卡" value={info?.no_vip_sx_num ?? '--'} suffix="张" />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title="未使用体验卡" value={info?.no_vip_ty_num ?? '--'} suffix="张" />
          </Col>
        </Row>
        <Form form={form} layout="horizontal" labelCol={{ flex: '100px' }} initialValues={{ kind: 1 }} style={{ maxWidth: 560 }} disabled={busy}>
          <Form.Item label="卡类型" name="kind" rules={[{ required: true, message: '请选择卡类型' }]}>
            <Radio.Group options={(info?.kinds ?? []).map((k) => ({ value: k.kind, label: `${k.name}（${yuan(k.vip_price)} 元/张，${k.validDays} 天）` }))} />
          </Form.Item>
          <Form.Item
            label="发卡数量"
            name="card_num"
            rules={[
              { required: true, message: '请输入发卡数量' },
              { type: 'integer', min: 1, max: info?.maxRelease ?? 20000, message: `发卡数量应为 1 到 ${info?.maxRelease ?? 20000} 之间的整数` },
            ]}
          >
            <InputNumber min={1} max={info?.maxRelease ?? 20000} precision={0} style={{ width: 200 }} addonAfter="张" />
          </Form.Item>
          <Form.Item label="单价">{yuan(price)} 元</Form.Item>
          <Form.Item label="合计">
            <strong>{yuan(total)} 元</strong>
          </Form.Item>
          <Form.Item label="备注" name="remark" rules={[{ max: 200, message: '备注长度不能超过 200 个字符' }]}>
            <Input.TextArea rows={2} maxLength={200} showCount />
          </Form.Item>
          <Form.Item label=" " colon={false}>
            <Access permissions={['card:release:add']}>
              <Button type="primary" loading={busy} onClick={submit}>
                发卡
              </Button>
            </Access>
          </Form.Item>
        </Form>
        {progress && (
          <div data-testid="release-progress">
            <div>
              正在制卡：{progress.made} / {progress.total} 张
            </div>
            <Progress percent={Math.floor((progress.made / Math.max(1, progress.total)) * 100)} status={result ? 'success' : 'active'} />
          </div>
        )}
        {result && (
          <Alert
            type="success"
            showIcon
            message="发卡成功"
            description={
              <Descriptions size="small" column={1}>
                <Descriptions.Item label="卡号">
                  {result.cardNoFirst} – {result.cardNoEnd}（共 {result.card_num} 张）
                </Descriptions.Item>
                <Descriptions.Item label="扣款">{yuan(result.totalFen)} 元</Descriptions.Item>
                <Descriptions.Item label="余额">{yuan(result.storeBalance)} 元</Descriptions.Item>
                <Descriptions.Item label="卡密">请在「发卡记录」中下载卡号列表（下载会被记录）</Descriptions.Item>
              </Descriptions>
            }
          />
        )}
      </Space>
    </Card>
  );
}
