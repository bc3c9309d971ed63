import { MenuFoldOutlined, MenuUnfoldOutlined, QuestionCircleOutlined, SettingOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Tooltip } from 'antd';
import { memo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useStableNavigate } from '@/router/useStableNavigate';
import { useExpertPathText } from './expertCrumb';
import { UserMenu } from './navbar/UserMenu';
import { useNotice } from './navbar/useNotice';
import { ToolCabinet } from './toolCabinet/ToolCabinet';

export interface Crumb {
  title: string;
  path?: string;
}

export interface NavbarProps {
  collapsed: boolean;
  onToggle: () => void;
  crumbs: readonly Crumb[];
  /** Top navigation shown instead of the breadcrumb (settings.topNav). */
  topNav?: ReactNode;
  onOpenSettings: () => void;
  mobile: boolean;
}

/**
 * Top bar (spec §2.4): sidebar toggle, breadcrumb (or the top navigation), scrolling notice, tips button with a
 * three-line tooltip, layout settings, and the avatar popover. Memoised with a navigate that ignores the location: it
 * renders on a page switch only because the breadcrumb changes.
 */
export const Navbar = memo(function Navbar({ collapsed, onToggle, crumbs, topNav, onOpenSettings, mobile }: NavbarProps) {
  const notice = useNotice();
  const expertText = useExpertPathText();
  const navigate = useStableNavigate();
  const tips = (
    <div>
      <div style={{ fontWeight: 600 }}>{notice?.tips_title ?? ''}</div>
      {(notice?.tips ?? []).slice(0, 3).map((line, i) => (
        // The three lines are plain text without ids.
        <div key={i}>{line}</div>
      ))}
    </div>
  );

  return (
    <div
      className="zy-navbar"
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        height: 50,
        padding: '0 12px 0 4px',
        background: '#fff',
        boxShadow: '0 1px 4px rgba(0,21,41,.08)',
      }}
    >
      <Button
        type="text"
        aria-label={collapsed ? '展开菜单' : '收起菜单'}
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={onToggle}
      />
      {expertText ? (
        <Breadcrumb
          className="zy-expert-crumb"
          items={[
            {
              title: (
                <Button type="link" size="small" style={{ padding: 0, height: 'auto' }} onClick={() => navigate(-1)}>
                  专家填报
                </Button>
              ),
            },
            { title: expertText },
          ]}
        />
      ) : null}
      {expertText
        ? null
        : (topNav ?? (
            <Breadcrumb
              style={{ flexShrink: 0, maxWidth: mobile ? '40%' : undefined, overflow: 'hidden', whiteSpace: 'nowrap' }}
              items={crumbs.map((c, i) => ({ title: c.path && i < crumbs.length - 1 ? <Link to={c.path}>{c.title}</Link> : c.title }))}
            />
          ))}
      <div className="zy-notice" style={{ flex: 1, minWidth: 0, overflow: 'hidden', whiteSpace: 'nowrap' }} role="marquee" aria-label="通知">
        {notice?.gddesc ? (
          <span className="zy-notice-text" style={{ color: '#e6a23c' }}>
            {notice.gddesc}
          </span>
        ) : null}
      </div>
      <ToolCabinet compact={mobile} />
      <Tooltip title={tips} placement="bottom">
        <Button type="text" aria-label="使用说明" icon={<QuestionCircleOutlined />} />
      </Tooltip>
      <Tooltip title="布局设置" placement="bottom">
        <Button type="text" aria-label="布局设置" icon={<SettingOutlined />} onClick={onOpenSettings} />
      </Tooltip>
      <UserMenu />
    </div>
  );
});
