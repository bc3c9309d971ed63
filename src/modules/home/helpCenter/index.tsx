import { CustomerServiceOutlined, QrcodeOutlined } from '@ant-design/icons';
import type { HelpItem } from '@common/home/help';
import { Button, Card, Col, Collapse, Descriptions, Empty, Input, Row, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { getHelpArticles } from '@/api/home';
import { useDict } from '@/components/DictTag/useDict';
import { useSession } from '@/session/sessionStore';
import { QrCodeDialog } from '../qrcode/QrCodeDialog';
import { UpdateTimeline } from '../versions/UpdateTimeline';
import { useVersionInfo } from '../versions/useVersionInfo';

/** 帮助中心 (menu component helpCenter/index): help articles with search, how to reach support, and what changed lately. */
export default function HelpCenterPage() {
  const { platform } = useSession();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const [items, setItems] = useState<HelpItem[] | null>(null);
  const [qr, setQr] = useState(false);
  const { info, loading } = useVersionInfo();
  const categories = useDict('service_help_category');

  useEffect(() => {
    let live = true;
    setItems(null);
    getHelpArticles(keyword)
      .then((r) => live && setItems(r))
      .catch(() => live && setItems([]));
    return () => {
      live = false;
    };
  }, [keyword]);

  return (
    <div style={{ padding: 16 }}>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <Card title="帮助文章" extra={<Input.Search allowClear placeholder="搜索标题、关键词或分类" onSearch={setKeyword} style={{ width: 260 }} />}>
            <Spin spinning={items === null}>
              {items && items.length === 0 ? (
                <Empty description={keyword ? `没有找到与"${keyword}"相关的文章` : '暂无帮助文章'} />
              ) : (
                <Collapse
                  accordion
                  items={(items ?? []).map((h) => ({
                    key: h.helpId,
                    label: (
                      <Space>
                        {h.title}
                        <Tag>{categories.find((c) => c.value === h.category)?.label ?? h.category}</Tag>
                      </Space>
                    ),
                    // Sanitised by the server when saved (sanitize-html, docs/schemas.md).
                    children: <div className="zy-rich-text" dangerouslySetInnerHTML={{ __html: h.content }} />,
                  }))}
                />
              )}
            </Spin>
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <Card title="联系客服" size="small">
              <Descriptions column={1} size="small">
                <Descriptions.Item label="客服电话">
                  {platform?.mobile?.kf_phone ? (
                    <Typography.Text copyable>
                      <CustomerServiceOutlined /> {platform.mobile.kf_phone}
                    </Typography.Text>
                  ) : (
                    '--'
                  )}
                </Descriptions.Item>
                <Descriptions.Item label="官网">
                  {platform?.gwaddr ? (
                    <a href={platform.gwaddr} target="_blank" rel="noopener noreferrer">
                      {platform.gwaddr}
                    </a>
                  ) : (
                    '--'
                  )}
                </Descriptions.Item>
              </Descriptions>
              {platform?.qrUrl ? <img src={platform.qrUrl} alt="客服二维码" width={120} height={120} style={{ objectFit: 'contain' }} /> : null}
              <div>
                <Button icon={<QrcodeOutlined />} onClick={() => setQr(true)} style={{ marginTop: 8 }}>
                  小程序 / APP / H5 二维码
                </Button>
              </div>
            </Card>
            <Card
              title="最近更新"
              size="small"
              extra={
                <Button type="link" size="small" onClick={() => navigate('/log')}>
                  更新日志
                </Button>
              }
            >
              <UpdateTimeline rows={(info?.historylog ?? []).slice(0, 3)} loading={loading} />
            </Card>
          </Space>
        </Col>
      </Row>
      <QrCodeDialog open={qr} onClose={() => setQr(false)} platform={platform} />
    </div>
  );
}
