import { request } from './request';

/** An OpenAPI 3.1 document, as much of it as the 系统接口 page reads. */
export interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  'x-permission'?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: unknown }>;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  tags?: Array<{ name: string; description?: string }>;
  components?: Record<string, Record<string, unknown>>;
}

/** 系统接口: the OpenAPI document generated from the schemas and the hand-written routes (tool:swagger:list). */
export async function getOpenApi(): Promise<OpenApiDocument> {
  return (await request({ url: '/dev-api/tool/swagger/openapi.json', method: 'get' })) as unknown as OpenApiDocument;
}
