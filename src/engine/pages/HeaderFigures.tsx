import type { HeaderFigure, HeaderSpec } from '@common/engine/types';
import { useCustom } from '@refinedev/core';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useMemo } from 'react';
import { atPath } from '../dataProvider';

/**
 * x-header (docs/schemas.md): a row of antd Statistic cards above a list (账户余额, 续费到期). With `from: "list"` the
 * figures are read from the list's own answer for the current page (no second call). With `url` they are a Refine
 * query of their own, keyed under the resource's list: Refine's invalidation after a write, and 刷新 (which
 * invalidates the list), read them again; so does a change of the applied search values named in `params` (they are
 * in the key) — a page change does not. `money` is a fen amount shown as ¥ yuan with 2 decimals, `count` a whole
 * number, `text` as it is.
 */

/** The value of one figure as Statistic takes it. */
export function figureValue(figure: HeaderFigure, answer: unknown): { value: string | number; precision?: number; prefix?: string } {
  const raw = atPath(answer, figure.key);
  if (raw === undefined || raw === null || raw === '') return { value: '-' };
  const n = Number(raw);
  if (figure.render === 'money') return Number.isFinite(n) ? { value: n / 100, precision: 2, prefix: '¥' } : { value: String(raw) };
  if (figure.render === 'count') return Number.isFinite(n) ? { value: Math.round(n), precision: 0 } : { value: String(raw) };
  return { value: typeof raw === 'object' ? JSON.stringify(raw) : String(raw) };
}

/** A title may name values of the answer: `{data.storeName}余额`. */
export const figureTitle = (title: string, answer: unknown) =>
  title.replace(/\{([A-Za-z_][A-Za-z0-9_.]*)\}/g, (_m, path: string) => String(atPath(answer, path) ?? ''));

/** The figures' query key: under the list of `resource`, so whatever reads the list again reads them too. */
export const headerQueryKey = (resource: string, spec: HeaderSpec, sent: Record<string, unknown>) =>
  ['data', 'default', resource, 'list', 'header', { url: spec.url, method: spec.method ?? 'GET', params: sent }] as const;

export function HeaderFigures({
  resource,
  spec,
  query,
  listAnswer,
  listLoading,
}: {
  /** The Refine resource name of the list. */
  resource: string;
  spec: HeaderSpec;
  /** The applied list query (search values by property). */
  query: Record<string, unknown>;
  /** The answer the data provider received for the list's current page (getList's `answer`, for `from: "list"`). */
  listAnswer: unknown;
  /** Whether that list is being read (until its first answer the figures show as loading). */
  listLoading: boolean;
}) {
  const fromList = spec.from === 'list';
  const paramsKey = JSON.stringify(
    Object.fromEntries((spec.params ?? []).filter((name) => query[name] !== undefined && query[name] !== '').map((name) => [name, query[name]])),
  );
  const sent = useMemo(() => JSON.parse(paramsKey) as Record<string, unknown>, [paramsKey]);
  const get = (spec.method ?? 'GET') === 'GET';
  const { query: figures } = useCustom({
    url: spec.url ?? '',
    method: get ? 'get' : 'post',
    config: get ? { query: sent } : { payload: sent },
    // The whole answer (keys are dot paths from its top); a read whatever the route is called, so never refused as a
    // repeat when the list is read again twice quickly.
    meta: { envelope: true, read: true },
    queryOptions: {
      queryKey: headerQueryKey(resource, spec, sent),
      enabled: !fromList,
      // Other search values: the figures keep their last values until the new ones come.
      placeholderData: (previous) => previous,
    },
    // The http layer has shown a refusal; a read again keeps the last values, a first read shows '-'.
    errorNotification: false,
  });
  const answer = fromList ? listAnswer : figures.data?.data;
  // A failed first read shows '-' rather than loading for ever.
  const loading = answer === undefined && (fromList ? listLoading : !figures.isError);

  return (
    <Row gutter={16} className="engine-header" style={{ marginBottom: 16 }}>
      {spec.figures.map((f) => (
        <Col key={`${f.key}:${f.title}`} xs={24} sm={12} md={8} lg={6}>
          <Card size="small">
            <Statistic title={figureTitle(f.title, answer)} {...figureValue(f, answer)} loading={loading} />
            {f.tip && (
              <Typography.Text type="secondary" className="engine-header-tip" style={{ fontSize: 12 }}>
                {f.tip}
              </Typography.Text>
            )}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
