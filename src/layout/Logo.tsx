import { Link } from 'react-router';
import { useSession } from '@/session/sessionStore';

export const LOGO_HEIGHT = 32;

/** Sidebar logo (32 px high): the small logo alone when collapsed, else the logo and the platform title. */
export function Logo({ collapsed, theme }: { collapsed: boolean; theme: 'dark' | 'light' }) {
  const { platform } = useSession();
  const src = (collapsed ? platform?.smalllogo || platform?.logo : platform?.logo) || '/logo.svg';
  return (
    <Link
      to="/index"
      className="zy-logo"
      style={{
        height: 50,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 8,
        padding: collapsed ? 0 : '0 12px',
        color: theme === 'dark' ? '#fff' : 'rgba(0,0,0,.88)',
        fontWeight: 600,
        fontSize: 14,
        overflow: 'hidden',
      }}
    >
      <img src={src} alt="logo" style={{ height: LOGO_HEIGHT, maxWidth: collapsed ? LOGO_HEIGHT : 120, objectFit: 'contain' }} />
      {!collapsed && <span style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>{platform?.title ?? '志愿填报管理系统'}</span>}
    </Link>
  );
}
