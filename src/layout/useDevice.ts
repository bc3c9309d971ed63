import { useSyncExternalStore } from 'react';

/** Spec §9: mobile mode below 992 px. */
export const MOBILE_WIDTH = 992;

export type Device = 'desktop' | 'mobile';

function subscribe(listener: () => void) {
  window.addEventListener('resize', listener);
  return () => window.removeEventListener('resize', listener);
}

const read = (): Device => (window.innerWidth < MOBILE_WIDTH ? 'mobile' : 'desktop');

/** 'mobile' while the window is narrower than 992 px, re-evaluated on resize. */
export function useDevice(): Device {
  return useSyncExternalStore(subscribe, read, () => 'desktop');
}

/** document.body.clientWidth, re-read on resize (the top nav's visible count depends on it). */
export function useBodyWidth(): number {
  return useSyncExternalStore(
    subscribe,
    () => document.body.clientWidth,
    () => 0,
  );
}
