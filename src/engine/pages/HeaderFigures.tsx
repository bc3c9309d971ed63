import type { HeaderFigure, HeaderSpec } from '@common/engine/types';
import { Card, Col, Row, Statistic } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { request } from '@/api/request';
import { atPath } from '../dataProvider';

/**
 * x-header (docs/schemas.md): a row of antd Statistic cards above a list (账户余额, 续费到期), read from the module route
 * `url` and read again whenever the list is (`stamp`: the list's answer time) or the applied search values named in
 * `params` change. `money` is a fen amount shown as ¥ yuan with 2 decimals, `count` a whole number, `text` as it is.
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

export function HeaderFigures({ spec, query, stamp }: { spec: HeaderSpec; query: Record<string, unknown>; stamp: number }) {
  const [answer, setAnswer] = useState<unknown>(null);
  const params = useMemo(() => {
    const out: Record<string, unknown> = {};
    for (const name of spec.params ?? []) if (query[name] !== undefined && query[name] !== '') out[name] = query[name];
    return out;
  }, [query, spec.params]);
  const paramsKey = JSON.stringify(params);
  useEffect(() => {
    let live = true;
    const sent = JSON.parse(paramsKey) as Record<string, unknown>;
    const get = (spec.method ?? 'GET') === 'GET';
    // stamp: read again with every list answer (search, page, refresh, after a write).
    void stamp;
    // A read, whatever the route is called: never refused as a repeat when the list refreshes twice quickly.
    request(get ? { url: spec.url, method: 'get', params: sent } : { url: spec.url, method: 'post', data: sent, options: { read: true } }).then(
      (env) => {
        if (live) setAnswer(env);
      },
      () => {
        // The http layer has shown the refusal; the figures keep their last values.
      },
    );
    return () => {
      live = false;
    };
  }, [spec.url, spec.method, paramsKey, stamp]);

  return (
    <Row gutter={16} className="engine-header" style={{ marginBottom: 16 }}>
      {spec.figures.map((f) => (
        <Col key={f.key} xs={24} sm={12} md={8} lg={6}>
          <Card size="small">
            <Statistic title={figureTitle(f.title, answer)} {...figureValue(f, answer)} loading={answer === null} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
