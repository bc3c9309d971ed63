import { message, Spin } from 'antd';
import { type ReactNode, useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { clearSession } from '@/providers/authProvider';
import { loadSession } from '@/session/loadSession';
import { useSession } from '@/session/sessionStore';
import { getToken } from '@/utils/auth';
import { decideNavigation } from './guard';

/**
 * Applies the route guard's decision (src/router/guard.ts) to the current location. On the first navigation of a
 * signed-in user it loads user info and routes, then the same location is evaluated again. If loading fails the
 * user is signed out, told why, and sent to '/'.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const loading = useRef(false);
  const decision = decideNavigation({
    path: location.pathname,
    fullPath: location.pathname + location.search,
    hasToken: Boolean(getToken()),
    rolesLoaded: session.loaded,
    licenceExpired: session.platform?.expired ?? false,
    knownPaths: session.knownPaths,
    allowedPaths: session.allowedPaths,
  });

  useEffect(() => {
    if (decision.type !== 'loadUser' || loading.current) return;
    loading.current = true;
    loadSession()
      .catch((error: Error) => {
        clearSession();
        message.error(error.message || '获取用户信息失败，请重新登录');
        navigate('/', { replace: true });
      })
      .finally(() => {
        loading.current = false;
      });
  }, [decision.type, navigate]);

  if (decision.type === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.type === 'loadUser') return <Spin fullscreen tip="正在加载用户信息..." />;
  return children;
}
