import { SettingOutlined } from '@ant-design/icons';
import type { FastPath } from '@common/home/fastPath';
import { App, Button, Card, Checkbox, Empty, Modal, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { getFastPath, saveFastPath } from '@/api/home';
import { menuIcon } from '@/layout/menuIcons';

/** 快捷菜单: the user's own shortcuts, picked (设置) from the pages of their own menu; stored on the server per user. */
export function FastMenu() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [data, setData] = useState<FastPath | null>(null);
  const [editing, setEditing] = useState(false);
  const [chosen, setChosen] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    getFastPath()
      .then(setData)
      .catch(() => undefined);
  }, []);

  const startEdit = () => {
    setChosen(data?.picked.map((p) => p.menuId) ?? []);
    setEditing(true);
  };
  const save = async () => {
    setSaving(true);
    try {
      setData(await saveFastPath(chosen));
      message.success('快捷菜单已保存');
      setEditing(false);
    } catch {
      // the server's message is shown by the http layer
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      title="快捷菜单"
      size="small"
      loading={!data}
      extra={
        <Button type="link" size="small" icon={<SettingOutlined />} onClick={startEdit}>
          设置
        </Button>
      }
    >
      {data && data.picked.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有快捷菜单，点击右上角设置" />
      ) : (
        <Space wrap size={[8, 8]}>
          {data?.picked.map((p) => (
            <Button key={p.menuId} icon={menuIcon(p.icon)} onClick={() => navigate(p.path)}>
              {p.menuName}
            </Button>
          ))}
        </Space>
      )}
      <Modal
        title="设置快捷菜单"
        open={editing}
        onCancel={() => setEditing(false)}
        onOk={save}
        confirmLoading={saving}
        okText="保存"
        cancelText="取消"
        width={640}
      >
        <Typography.Paragraph type="secondary">
          从您的菜单中选择常用页面（最多 {data?.max ?? 12} 个），已选 {chosen.length} 个。
        </Typography.Paragraph>
        <Checkbox.Group value={chosen} onChange={(v) => setChosen(v as number[])} style={{ width: '100%' }}>
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))', gap: 8 }}>
            {data?.choices.map((c) => (
              <Checkbox key={c.menuId} value={c.menuId} disabled={!chosen.includes(c.menuId) && chosen.length >= (data?.max ?? 12)}>
                {c.menuName}
              </Checkbox>
            ))}
          </div>
        </Checkbox.Group>
      </Modal>
    </Card>
  );
}
