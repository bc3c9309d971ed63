/** The console's API layer: one module per area, all calls through the signed http client in request.ts. */
export * as account from './account';
export { download, fetchFile } from './download';
export * as login from './login';
export * as menu from './menu';
export * as platform from './platform';
export * as profile from './profile';
export { http, RequestError, request, setSessionExpiredHandler } from './request';
export * as settings from './settings';
export type * from './types';
