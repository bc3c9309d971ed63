import type { TodoItem } from '@common/home/todo';
import { Badge, Card, Col, Empty, Row, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useSession } from '@/session/sessionStore';
import { routeForComponent, withQuery } from '../routeFor';

/** 待办事项: one tile per source the user may open; a click opens that list with the same filter the count used. */
export function TodoPanel({ items, loading }: { items: TodoItem[]; loading: boolean }) {
  const { routes } = useSession();
  const navigate = useNavigate();
  return (
    <Card title="待办事项" loading={loading} size="small">
      {items.length === 0 ? (
        <Empty description="暂无待办" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Row gutter={[12, 12]}>
          {items.map((t) => {
            const route = routeForComponent(routes, t.component);
            const open = route ? () => navigate(withQuery(route.fullPath, t.query)) : undefined;
            return (
              <Col key={t.key} xs={12} sm={8} md={Math.max(4, Math.floor(24 / items.length))}>
                <button
                  type="button"
                  className="zy-home-todo"
                  data-todo={t.key}
                  disabled={!open}
                  onClick={open}
                  style={{
                    width: '100%',
                    border: '1px solid var(--ant-color-border-secondary, #f0f0f0)',
                    borderRadius: 8,
                    padding: '12px 8px',
                    background: t.count > 0 ? 'var(--zy-primary-light-9, #ecf5ff)' : 'transparent',
                    cursor: open ? 'pointer' : 'default',
                    textAlign: 'center',
                  }}
                >
                  <Badge dot={t.count > 0} offset={[6, 0]}>
                    <Typography.Text type="secondary">{t.title}</Typography.Text>
                  </Badge>
                  <div style={{ fontSize: 26, fontWeight: 600, color: t.count > 0 ? 'var(--zy-primary, #409EFF)' : undefined }} data-count>
                    {t.count}
                  </div>
                </button>
              </Col>
            );
          })}
        </Row>
      )}
    </Card>
  );
}
