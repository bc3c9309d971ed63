/** Default messages of spec §8, used when an answer carries no msg of its own. */
export const errorCode: Readonly<Record<string, string>> = {
  '200': '操作成功',
  '401': '认证失败，无法访问系统资源',
  '403': '当前操作没有权限',
  '404': '访问资源不存在',
  '500': '系统内部错误',
  '50000': '系统内部错误，请稍后重试',
  default: '系统未知错误，请反馈给管理员',
};

/** The server's own message wins; otherwise the code's default; otherwise the catch-all. */
export function messageFor(code: number | string, msg?: string | null): string {
  return msg || errorCode[String(code)] || errorCode.default;
}
