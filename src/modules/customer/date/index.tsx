import { Card, Col, DatePicker, Row, Space, Statistic, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { type CardDaily, cardDaily } from '@/api/customer';
import { DailyChart } from './DailyChart';

/** 卡数据 (card/date/index): activations and expiries by day over a chosen range (default the last 30 days). */
export default function CardDatePage() {
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(29, 'day'), dayjs()]);
  const [data, setData] = useState<CardDaily | null>(null);
  useEffect(() => {
    cardDaily(range[0].format('YYYY-MM-DD'), range[1].format('YYYY-MM-DD'))
      .then(setData)
      .catch(() => undefined);
  }, [range]);
  return (
    <Card className="zy-page">
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        <Space wrap>
          <span>统计日期</span>
          <DatePicker.RangePicker
            allowClear={false}
            value={range}
            disabledDate={(d) => d.isAfter(dayjs().add(1, 'year'))}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
        </Space>
        <Row gutter={16}>
          <Col span={12} md={6}>
            <Statistic title="期间激活（张）" value={data?.totals.activated ?? '--'} />
          </Col>
          <Col span={12} md={6}>
            <Statistic title="期间到期（张）" value={data?.totals.expired ?? '--'} />
          </Col>
        </Row>
        {data && <DailyChart days={data.days} />}
        <Table
          size="small"
          rowKey="date"
          dataSource={[...(data?.days ?? [])].reverse().filter((d) => d.activated || d.expired)}
          pagination={{ pageSize: 10 }}
          locale={{ emptyText: '所选期间没有激活或到期的卡' }}
          columns={[
            { title: '日期', dataIndex: 'date' },
            { title: '激活（张）', dataIndex: 'activated' },
            { title: '到期（张）', dataIndex: 'expired' },
          ]}
        />
      </Space>
    </Card>
  );
}
