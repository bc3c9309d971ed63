import { ToolOutlined } from '@ant-design/icons';
import { App, Button, Drawer, Popover, Typography } from 'antd';
import { memo, useEffect, useRef, useState } from 'react';
import { getPlatformConfig } from '@/api/platform';
import { authProvider } from '@/providers/authProvider';
import { useSession } from '@/session/sessionStore';
import { getToken } from '@/utils/auth';
import { isTokenExpiredMessage, isToolboxReadyMessage, type ToolItem, toolSandbox, toolUrl, visibleGroups } from './tools';

/** Spec §9: tool popover 800 wide, tool drawer 95 %, z-index 9999. */
export const TOOL_POPOVER_WIDTH = 800;

interface OpenTool {
  item: ToolItem;
  url: string;
  origin: string;
}

/**
 * 工具箱 (spec §2.4, §4 Tool drawer, §7.10): a hover popover with the five groups; a tool opens in a drawer with a
 * sandboxed iframe of the toolbox address. The drawer opens only when platformConfig returns an address; while it
 * is open, a token-expired message from the tool shows 系统提示 with 重新登录, which signs out and goes to /index.
 */
// Memoised: the navbar renders on every page switch (its breadcrumb changes), this need not.
export const ToolCabinet = memo(function ToolCabinet({ compact = false }: { compact?: boolean }) {
  const { user } = useSession();
  const { modal, message } = App.useApp();
  const [hovered, setHovered] = useState(false);
  const [tool, setTool] = useState<OpenTool | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const expiredShown = useRef(false);
  const frame = useRef<HTMLIFrameElement>(null);

  const open = async (item: ToolItem) => {
    setHovered(false);
    let address = '';
    try {
      address = (await getPlatformConfig()).toolboxaddr;
    } catch {
      // §4: the state is set but the drawer does not open.
      setTool(null);
      setDrawerOpen(false);
      message.error('获取工具箱地址失败，请稍后重试');
      return;
    }
    if (!address) {
      setDrawerOpen(false);
      message.warning('平台未配置工具箱地址，请联系管理员');
      return;
    }
    const url = toolUrl(address, item.route, { token: getToken() ?? '', query: {}, roleId: user?.roleId ?? 0, hostname: window.location.hostname });
    setTool({ item, url, origin: new URL(url).origin });
    setDrawerOpen(true);
  };

  // While the drawer is open, listen to the tool: a token-expired message leads to re-login.
  useEffect(() => {
    if (!drawerOpen || !tool) return;
    const onMessage = (event: MessageEvent) => {
      // A sandboxed iframe without allow-same-origin would post from origin 'null'; ours keeps its origin (toolSandbox).
      if (event.origin !== tool.origin || event.source !== frame.current?.contentWindow) return;
      if (isToolboxReadyMessage(event.data)) {
        // The handshake: the token goes to this frame and this origin only, never into the tool's address.
        frame.current?.contentWindow?.postMessage({ type: 'toolboxToken', token: getToken() ?? '' }, tool.origin);
        return;
      }
      if (!isTokenExpiredMessage(event.data) || expiredShown.current) return;
      expiredShown.current = true;
      modal.warning({
        title: '系统提示',
        content: '登录状态已过期，请重新登录',
        okText: '重新登录',
        zIndex: 10000,
        onOk: async () => {
          // Like RuoYi: sign out, then a full load of /index (which leads to the sign-in page) so no state lingers.
          await authProvider.logout?.({});
          window.location.href = '/index';
        },
      });
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [drawerOpen, tool, modal]);

  const groups = visibleGroups(Boolean(user?.diagnosis));
  const content = (
    <div style={{ width: TOOL_POPOVER_WIDTH - 24, display: 'grid', gridTemplateColumns: 'repeat(5, 1fr)', gap: 12 }} className="zy-tool-cabinet">
      {groups.map((g) => (
        <div key={g.title}>
          <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
            {g.title}
          </Typography.Text>
          {g.items.map((item) => (
            <Button key={item.route} type="link" size="small" style={{ display: 'block', padding: 0, height: 28 }} onClick={() => open(item)}>
              {item.title}
            </Button>
          ))}
        </div>
      ))}
    </div>
  );

  return (
    <>
      <Popover
        content={content}
        title="工具箱"
        trigger={['hover', 'click']}
        placement="bottom"
        open={hovered}
        onOpenChange={setHovered}
        overlayStyle={{ maxWidth: TOOL_POPOVER_WIDTH }}
      >
        <Button type="text" icon={<ToolOutlined />} aria-label="工具箱">
          {compact ? null : '工具箱'}
        </Button>
      </Popover>
      <Drawer
        title={tool?.item.title ?? '工具箱'}
        placement="right"
        width="95%"
        zIndex={9999}
        open={drawerOpen}
        onClose={() => setDrawerOpen(false)}
        destroyOnHidden
        styles={{ body: { padding: 0 } }}
      >
        {tool && (
          <iframe
            ref={frame}
            title={tool.item.title}
            src={tool.url}
            sandbox={toolSandbox(tool.origin)}
            style={{ width: '100%', height: '100%', border: 0, display: 'block' }}
          />
        )}
      </Drawer>
    </>
  );
});
