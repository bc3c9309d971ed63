/**
 * 平台设置's toolbox address (spec §7.10) is where the console sends its users — and, through the postMessage
 * handshake, their session token. So it may only be the built-in tool site (/toolbox/ on this server) or an origin the
 * server's configuration lists (TOOLBOX_ORIGINS); anything else is refused when saved and not handed out when read.
 */
export const TOOLBOX_ADDRESS_MESSAGE = '工具箱地址只能是内置工具站（/toolbox/）或服务器配置（TOOLBOX_ORIGINS）允许的地址';

export function isAllowedToolboxAddress(address: string | null | undefined, allowedOrigins: string[]): boolean {
  const value = (address ?? '').trim();
  if (!value) return true; // none: the tool cabinet says so
  if (/^\/toolbox\/[\w\-./]*$/.test(value) && !value.includes('..')) return true;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username || url.password) return false;
  return allowedOrigins.includes(url.origin);
}
