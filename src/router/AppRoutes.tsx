import { lazy } from 'react';
import { Navigate, Route, Routes, useParams } from 'react-router';
import BasicLayout from '@/layout/BasicLayout';
import ErrorPage from '@/pages/error/ErrorPage';
import HomePage from '@/pages/home';
import LoginPage from '@/pages/login';
import RedirectPage from '@/pages/redirect';
import RegisterPage from '@/pages/register';
import { useSession } from '@/session/sessionStore';
import { MenuView } from './MenuView';
import { RouteGuard } from './RouteGuard';
import { GATED_ROUTES } from './staticRoutes';

const AppDetail = lazy(() => import('@/pages/fixed/AppDetail'));
const BeOverdue = lazy(() => import('@/pages/fixed/BeOverdue'));
const UpdateLog = lazy(() => import('@/pages/fixed/UpdateLog'));
const Profile = lazy(() => import('@/pages/profile'));

/** The permission-gated hidden routes take numeric parameters only; anything else is the not-found page. */
function GatedView({ title, component }: { title: string; component: string }) {
  const params = useParams();
  const numeric = Object.values(params).every((v) => v !== undefined && /^\d+$/.test(v));
  return numeric ? <MenuView title={title} component={component} /> : <ErrorPage status="404" />;
}

/**
 * All console routes: the fixed ones of §2.1 plus the routes built from the user's menu. The catch-all comes last
 * and goes through the guard, so refreshing a dynamic route waits for the menu instead of showing not-found.
 */
export function AppRoutes() {
  const { routes, allowedPaths } = useSession();
  const gated = GATED_ROUTES.filter((r) => allowedPaths.includes(r.path));
  return (
    <Routes>
      <Route
        path="/login"
        element={
          <RouteGuard>
            <LoginPage />
          </RouteGuard>
        }
      />
      <Route path="/register" element={<RegisterPage />} />
      <Route path="/appDetail" element={<AppDetail />} />
      <Route
        path="/beOverdue"
        element={
          <RouteGuard>
            <BeOverdue />
          </RouteGuard>
        }
      />
      <Route
        element={
          <RouteGuard>
            <BasicLayout />
          </RouteGuard>
        }
      >
        <Route path="/" element={<Navigate to="/index" replace />} />
        <Route path="/index" element={<HomePage />} />
        <Route path="/redirect/*" element={<RedirectPage />} />
        <Route path="/user/profile" element={<Profile />} />
        <Route path="/log" element={<UpdateLog />} />
        <Route path="/401" element={<ErrorPage status="401" />} />
        <Route path="/405" element={<ErrorPage status="405" />} />
        <Route path="/test1" element={<ErrorPage status="404" />} />
        <Route path="/test2" element={<ErrorPage status="404" />} />
        {gated.map((r) => (
          <Route key={r.path} path={r.path} element={<GatedView title={r.title} component={r.component} />} />
        ))}
        {routes.map((r) => (
          <Route key={r.fullPath} path={r.fullPath} element={<MenuView title={r.meta?.title ?? ''} component={r.component} />} />
        ))}
        <Route path="*" element={<ErrorPage status="404" />} />
      </Route>
    </Routes>
  );
}
