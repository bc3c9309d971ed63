import type { FastifySchemaValidationError } from 'fastify/types/schema.js';

/**
 * Chinese messages for request-schema failures. Each property schema may carry a `title` (the field's Chinese
 * name); the message names it so the user knows what to fix.
 */
export function validationMessage(errors: FastifySchemaValidationError[]): string {
  const e = errors[0];
  if (!e) return '请求参数不正确';
  const params = e.params as Record<string, unknown>;
  const parent = (e as unknown as { parentSchema?: { title?: string; properties?: Record<string, { title?: string }> } }).parentSchema;
  const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const label = (name: string) => parent?.properties?.[name]?.title ?? name;
  const own = parent?.title ?? (field || '请求体');
  switch (e.keyword) {
    case 'required':
      return `${label(String(params.missingProperty))}不能为空`;
    case 'maxLength':
      return `${own}长度不能超过 ${params.limit} 个字符`;
    case 'minLength':
      return Number(params.limit) <= 1 ? `${own}不能为空` : `${own}长度不能少于 ${params.limit} 个字符`;
    case 'type':
      return `${own}格式不正确，应为${typeName(String(params.type))}`;
    case 'maximum':
      return `${own}不能大于 ${params.limit}`;
    case 'minimum':
      return `${own}不能小于 ${params.limit}`;
    case 'pattern':
    case 'format':
      return `${own}格式不正确`;
    case 'enum':
      return `${own}取值不在允许范围内`;
    case 'additionalProperties':
      return `不支持的字段：${String(params.additionalProperty)}`;
    case 'maxItems':
      return `${own}最多 ${params.limit} 项`;
    default:
      return `${own}不符合要求`;
  }
}

function typeName(t: string): string {
  return ({ string: '文本', number: '数字', integer: '整数', boolean: '布尔值', object: '对象', array: '数组' } as Record<string, string>)[t] ?? t;
}
