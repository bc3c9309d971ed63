import dayjs from 'dayjs';

/** Spec §9: version 2.0.4. */
export const APP_VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '2.0.4';

/** The build's publish time as YYYY-MM-DD HH:mm:ss ('' when the build did not define it, e.g. in unit tests). */
export function publishTime(): string {
  const raw = typeof __APP_PUBLISH_TIME__ === 'string' ? __APP_PUBLISH_TIME__ : '';
  return raw && dayjs(raw).isValid() ? dayjs(raw).format('YYYY-MM-DD HH:mm:ss') : '';
}
