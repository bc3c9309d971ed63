import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { type ReactNode, useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { setSessionExpiredHandler } from '@/api/request';
import { AppErrorBoundary } from '@/components/ErrorBoundary';
import { FeedbackBridge } from '@/components/FeedbackBridge';
import { SettingsProvider, useLayoutSettings } from '@/layout/settings/SettingsContext';
import { clearSession } from '@/providers/authProvider';
import { AppRoutes } from '@/router/AppRoutes';
import { loadPlatform } from '@/session/loadSession';
import { useSession } from '@/session/sessionStore';
import { darkShades, lightShades, normalizeHex } from '@/utils/theme';

/** antd theme from the layout settings: the chosen colour drives the primary token and the --zy-* shade variables. */
function ThemedConfig({ children }: { children: ReactNode }) {
  const { settings } = useLayoutSettings();
  const primary = normalizeHex(settings.theme) ?? '#409EFF';
  useEffect(() => {
    const style = document.documentElement.style;
    style.setProperty('--zy-primary', primary);
    for (const [i, c] of lightShades(primary).entries()) style.setProperty(`--zy-primary-light-${i + 1}`, c);
    for (const [i, c] of darkShades(primary).entries()) style.setProperty(`--zy-primary-dark-${i + 1}`, c);
  }, [primary]);
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: primary, colorInfo: primary, colorLink: primary } }}>
      {children}
    </ConfigProvider>
  );
}

/**
 * Providers wired in one place: layout settings and antd (zh_CN, theme colour). Refine wraps only the signed-in
 * console (src/providers/RefineShell.tsx, loaded with it), so the sign-in page stays light.
 */
export default function App() {
  const { platform } = useSession();
  useEffect(() => {
    loadPlatform();
    // 重新登录 after an expired session: sign out locally and go to /index (which leads to the sign-in page).
    setSessionExpiredHandler(() => {
      clearSession();
      window.location.href = '/index';
    });
  }, []);
  useEffect(() => {
    if (platform?.title) document.title = platform.title;
  }, [platform?.title]);

  return (
    <BrowserRouter>
      <SettingsProvider>
        <ThemedConfig>
          <AntdApp>
            <FeedbackBridge />
            {/* The frame and the pages outside it; each page inside the frame has its own (src/layout/AppMain.tsx). */}
            <AppErrorBoundary>
              <AppRoutes />
            </AppErrorBoundary>
          </AntdApp>
        </ThemedConfig>
      </SettingsProvider>
    </BrowserRouter>
  );
}
