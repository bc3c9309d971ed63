import { yuanText } from '@common/finance/checks';
import type { Figure, Statistics } from '@common/home/statistics';
import { Button, Card, Col, DatePicker, Row, Space, Spin, Statistic, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { FIGURE_TITLES, getStatistics } from '@/api/home';
import { formatWan } from '@/utils/format';

const StatsChart = lazy(() => import('./StatsChart'));

const TOTALS: Figure[] = ['newCustomers', 'activatedCards', 'submittedPlans', 'approvedPlans', 'revenue', 'registrations', 'pageViews'];
const PRESETS: Array<{ label: string; days: number }> = [
  { label: '近7天', days: 7 },
  { label: '近30天', days: 30 },
  { label: '近90天', days: 90 },
  { label: '近一年', days: 365 },
];
/** The server answers at most 366 days. */
const MAX_DAYS = 366;

/**
 * 统计: the figures by day over a chosen range, a chart and the range's totals (the home page and the 统计 page).
 * Days are the server's (China time): the first answer says which day is today, the presets count back from it.
 */
export function StatisticsPanel({ initialDays = 30, chartHeight }: { initialDays?: number; chartHeight?: number }) {
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [today, setToday] = useState<Dayjs | null>(null);
  const [data, setData] = useState<Statistics | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(
    async (r: [Dayjs, Dayjs] | null) => {
      setLoading(true);
      try {
        const end = r ? r[1].format('YYYY-MM-DD') : '';
        const begin = r ? r[0].format('YYYY-MM-DD') : '';
        const s = await getStatistics(begin, end, r ? undefined : initialDays);
        setData(s);
        if (!r) {
          setToday(dayjs(s.endDate));
          setRange([dayjs(s.beginDate), dayjs(s.endDate)]);
        }
      } catch {
        // shown by the http layer
      } finally {
        setLoading(false);
      }
    },
    [initialDays],
  );
  const [asked, setAsked] = useState<[Dayjs, Dayjs] | null>(null);
  useEffect(() => {
    void load(asked);
  }, [load, asked]);
  const choose = (r: [Dayjs, Dayjs]) => {
    setRange(r);
    setAsked(r);
  };
  const last = today ?? dayjs();

  return (
    <Card
      title="业务统计"
      size="small"
      extra={
        <Space wrap>
          {PRESETS.map((p) => (
            <Button key={p.days} size="small" type="text" onClick={() => choose([last.subtract(p.days - 1, 'day'), last])}>
              {p.label}
            </Button>
          ))}
          <DatePicker.RangePicker
            size="small"
            allowClear={false}
            value={range}
            disabledDate={(d, info) => {
              const from = info?.from;
              return d.isAfter(last, 'day') || (!!from && Math.abs(d.diff(from, 'day')) >= MAX_DAYS);
            }}
            onChange={(v) => v?.[0] && v[1] && choose([v[0], v[1]])}
          />
        </Space>
      }
    >
      <Spin spinning={loading}>
        <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
          {TOTALS.map((f) => (
            <Col key={f} xs={12} sm={8} md={6} lg={24 / 8} style={{ minWidth: 120 }}>
              <Statistic
                title={`${FIGURE_TITLES[f]}合计`}
                value={data ? (f === 'revenue' ? yuanText(data.totals.revenue) : formatWan(data.totals[f])) : '--'}
                valueStyle={{ fontSize: 20 }}
              />
            </Col>
          ))}
        </Row>
        {data ? (
          <Suspense fallback={<div style={{ height: chartHeight ?? 340 }} />}>
            <StatsChart days={data.days} height={chartHeight} />
          </Suspense>
        ) : (
          <div style={{ height: chartHeight ?? 340 }} />
        )}
        {data && !data.allStores ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            仅统计本门店的数据；访问量为全平台。
          </Typography.Text>
        ) : null}
      </Spin>
    </Card>
  );
}
