import { CloseCircleFilled, ExclamationCircleFilled, LoadingOutlined } from '@ant-design/icons';
import { Button, theme } from 'antd';
import { Component, type ReactNode, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { type ChunkOutcome, clearReloadMarker, isChunkLoadError, reloadOnce } from './chunkReload';

/**
 * Error boundaries of the console. Without them a page whose code fails to load (an old tab after a redeploy) or
 * that throws while rendering unmounts the whole React tree: a white page with no way on but the browser's reload.
 *
 * - PageErrorBoundary wraps each routed page inside the frame (src/layout/AppMain.tsx): the menu, header and tabs
 *   stay, only the page area shows the error.
 * - AppErrorBoundary wraps all routes (src/App.tsx): the frame itself, the sign-in page and the pages outside it.
 *
 * A failed chunk reloads the page once (chunkReload.ts); only when that did not help does the user see an error page.
 * The error itself goes to the browser console (React logs every error a boundary catches); the user sees what to do.
 */

interface BoundaryProps {
  children: ReactNode;
  /** Whether this page is the one on screen: a hidden kept page keeps its state until it is shown again. */
  active: boolean;
  /** The location's identity: a new one while shown (another visit, the menu clicked again) renders the page again. */
  resetKey: string;
  /** 'page': inside the frame; 'app': the whole window. */
  scope: 'page' | 'app';
}

interface BoundaryState {
  failed: boolean;
  /** The page's code could not be loaded (rather than an error while rendering it). */
  chunk: boolean;
  /** Set for a chunk failure once componentDidCatch has decided what to do about it. */
  outcome: ChunkOutcome | undefined;
  resetKey: string;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, chunk: false, outcome: undefined, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, chunk: isChunkLoadError(error), outcome: undefined };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (!props.active || props.resetKey === state.resetKey) return null;
    return state.failed ? { failed: false, chunk: false, outcome: undefined, resetKey: props.resetKey } : { resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown): void {
    if (!isChunkLoadError(error)) return;
    // A side effect (it may reload the page), so here after the commit and not in getDerivedStateFromError.
    const outcome = reloadOnce();
    console.warn(
      outcome === 'reloading'
        ? '页面代码加载失败（可能刚发布了新版本），正在刷新页面'
        : `页面代码加载失败，${outcome === 'offline' ? '网络已断开' : '刷新后仍然失败'}，显示错误页`,
    );
    this.setState({ outcome });
  }

  override render() {
    const { failed, chunk, outcome } = this.state;
    if (!failed) return this.props.children;
    const kind = chunk ? (outcome ?? 'reloading') : 'render';
    return <ErrorView kind={kind} scope={this.props.scope} />;
  }
}

const reload = () => window.location.reload();

const TEXT = {
  reloading: {
    title: '正在刷新页面',
    sub: '系统可能已更新，页面正在自动刷新以加载新版本。如果长时间没有反应，请点击“刷新”。',
  },
  failed: {
    title: '页面加载失败',
    sub: '系统可能已更新，请刷新页面后重试。如果刷新后仍然打不开，请检查网络连接或联系管理员。',
  },
  offline: {
    title: '页面加载失败',
    sub: '网络连接已断开，请检查网络，恢复后点击“刷新”。',
  },
  render: {
    title: '页面出错了',
    sub: '这个页面暂时无法显示，请刷新页面重试。如果问题反复出现，请联系管理员。',
  },
} as const;

/**
 * Laid out like antd's Result (icon, title, text, buttons), built from parts the sign-in page already loads: Result
 * with its illustrations would add about 10 kB (gzip) to the sign-in page's budgeted first download, and the top-level
 * boundary has to be there (a boundary loaded lazily could itself be a missing chunk).
 */
function ErrorView({ kind, scope }: { kind: keyof typeof TEXT; scope: BoundaryProps['scope'] }) {
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const t = TEXT[kind];
  const iconStyle = { fontSize: 72 };
  const icon =
    kind === 'reloading' ? (
      <LoadingOutlined style={{ ...iconStyle, color: token.colorPrimary }} />
    ) : kind === 'render' ? (
      <CloseCircleFilled style={{ ...iconStyle, color: token.colorError }} />
    ) : (
      <ExclamationCircleFilled style={{ ...iconStyle, color: token.colorWarning }} />
    );
  return (
    <div
      role="alert"
      className="zy-error-view"
      style={{
        padding: '48px 32px',
        textAlign: 'center',
        ...(scope === 'app' ? { minHeight: '100vh', display: 'flex', flexDirection: 'column', justifyContent: 'center' } : {}),
      }}
    >
      <div style={{ marginBottom: 24 }}>{icon}</div>
      <div style={{ color: token.colorTextHeading, fontSize: 24, lineHeight: 1.33 }}>{t.title}</div>
      <div style={{ color: token.colorTextDescription, fontSize: 14, lineHeight: 1.57, marginTop: 4 }}>{t.sub}</div>
      <div style={{ marginTop: 24, display: 'flex', gap: 8, justifyContent: 'center' }}>
        <Button type="primary" onClick={reload}>
          刷新
        </Button>
        {kind === 'render' && <Button onClick={() => navigate('/index')}>返回首页</Button>}
      </div>
    </div>
  );
}

/** Around one routed page inside the frame; see the module comment. */
export function PageErrorBoundary({ children, active, resetKey }: { children: ReactNode; active: boolean; resetKey: string }) {
  return (
    <ErrorBoundary scope="page" active={active} resetKey={resetKey}>
      {children}
    </ErrorBoundary>
  );
}

/** Around all routes, inside the router; reset when the address changes. */
export function AppErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary scope="app" active resetKey={pathname}>
      {children}
    </ErrorBoundary>
  );
}

/**
 * Rendered after a page's content inside its Suspense boundary: mounts once the page's code has arrived and it has
 * rendered, which is when a reload for a failed chunk has done its work (chunkReload.ts clearReloadMarker).
 */
export function PageLoaded() {
  useEffect(() => clearReloadMarker(), []);
  return null;
}
