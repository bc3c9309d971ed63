import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { DEFAULT_SETTINGS, type LayoutSettings, loadSettings } from '@/utils/theme';

export interface SettingsContextValue {
  settings: LayoutSettings;
  /** Change settings live (preview); 保存配置 persists them with saveSettings. */
  update: (patch: Partial<LayoutSettings>) => void;
}

const SettingsContext = createContext<SettingsContextValue>({ settings: { ...DEFAULT_SETTINGS }, update: () => undefined });

/** Layout settings (spec §3 Settings) read once from local storage ('layout-setting') and shared with the whole console. */
export function SettingsProvider({ children, initial }: { children: ReactNode; initial?: LayoutSettings }) {
  const [settings, setSettings] = useState<LayoutSettings>(() => initial ?? loadSettings());
  const update = useCallback((patch: Partial<LayoutSettings>) => setSettings((s) => ({ ...s, ...patch })), []);
  const value = useMemo(() => ({ settings, update }), [settings, update]);
  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}

export function useLayoutSettings(): SettingsContextValue {
  return useContext(SettingsContext);
}
