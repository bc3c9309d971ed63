import { Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useParams } from 'react-router';
import LoginPage from '@/pages/login';
import { useSession } from '@/session/sessionStore';
import { menuViewModule } from './menuViewModule';
import { RouteGuard } from './RouteGuard';
import { readyLazy } from './readyLazy';
import { GATED_ROUTES } from './staticRoutes';

// Only the sign-in page ships in the first download (budget checked by scripts/check-login-budget.mjs); the layout,
// home and every other page are chunks of their own, fetched when first shown.
const BasicLayout = lazy(() => import('@/layout/BasicLayout'));
const ErrorPage = lazy(() => import('@/pages/error/ErrorPage'));
const HomePage = lazy(() => import('@/modules/home'));
const RedirectPage = lazy(() => import('@/pages/redirect'));
const RegisterPage = lazy(() => import('@/pages/register'));
const RefineShell = lazy(() => import('@/providers/RefineShell'));
// Renders at once when prefetchPages.tsx has fetched it while 首页 was shown (no loading fallback on a first switch).
const MenuView = readyLazy(menuViewModule, (m) => m.MenuView);
const AppDetail = lazy(() => import('@/pages/fixed/AppDetail'));
const BeOverdue = lazy(() => import('@/pages/fixed/BeOverdue'));
const UpdateLog = lazy(() => import('@/pages/fixed/UpdateLog'));
const ConnectionCheck = lazy(() => import('@/pages/fixed/checks/ConnectionCheck'));
const BrowserCheck = lazy(() => import('@/pages/fixed/checks/BrowserCheck'));
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
    <Suspense fallback={<Spin fullscreen tip="正在加载页面..." />}>
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
              <RefineShell>
                <BeOverdue />
              </RefineShell>
            </RouteGuard>
          }
        />
        <Route
          element={
            <RouteGuard>
              <RefineShell>
                <BasicLayout />
              </RefineShell>
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
          {/* Spec §2.1 names /test1 and /test2 without a purpose: self-checks a user can send to support (docs/shell.md). */}
          <Route path="/test1" element={<ConnectionCheck />} />
          <Route path="/test2" element={<BrowserCheck />} />
          {gated.map((r) => (
            <Route key={r.path} path={r.path} element={<GatedView title={r.title} component={r.component} />} />
          ))}
          {routes.map((r) => (
            <Route key={r.fullPath} path={r.fullPath} element={<MenuView title={r.meta?.title ?? ''} component={r.component} />} />
          ))}
          <Route path="*" element={<ErrorPage status="404" />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
