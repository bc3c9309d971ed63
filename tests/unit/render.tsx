import '@ant-design/v5-patch-for-react-19';
import { type RenderOptions, render } from '@testing-library/react';
import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactElement, ReactNode } from 'react';

/**
 * antd as the console sets it up (zh_CN, the App context), with one difference: no motion.
 *
 * Motion is what a browser shows and the browser tests see; in jsdom it is only timers — a popup's or dialog's enter
 * and leave wait for a transition jsdom never runs, then for rc-motion's deadline — which delay what the test waits
 * for and outlive the test. Without it a dialog, dropdown or tooltip is there or gone at once.
 */
const theme = { token: { motion: false } };

export function TestApp({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      <AntdApp>{children}</AntdApp>
    </ConfigProvider>
  );
}

/** render() inside TestApp. */
export const renderUi = (ui: ReactElement, options?: Omit<RenderOptions, 'wrapper'>) => render(ui, { ...options, wrapper: TestApp });
