import { describe, expect, it } from 'vitest';
import { schemaProblems } from './schemaProblems';

/** `x-owner` (docs/schemas.md): the schema check accepts it only on a readOnly integer property, without import / 清空. */
const schema = (extra: Record<string, unknown> = {}, owner: Record<string, unknown> = { type: ['integer', 'null'], title: '所属用户', readOnly: true }) => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'demo_note',
  title: '便签',
  type: 'object',
  'x-table': 'demo_note',
  'x-primaryKey': 'noteId',
  'x-owner': 'userId',
  'x-endpoint': { style: 'rest', base: '/dev-api/demo/note' },
  'x-permissions': { list: 'demo:note:list', add: 'demo:note:add' },
  properties: {
    noteId: { type: 'integer', title: '编号', readOnly: true },
    userId: owner,
    title: { type: 'string', title: '标题' },
  },
  ...extra,
});

const problemsOf = (content: unknown) => schemaProblems({ 'demo_note.json': content });

describe('x-owner', () => {
  it('names a readOnly integer property', () => {
    expect(problemsOf(schema())).toEqual([]);
    expect(problemsOf(schema({ 'x-owner': 'ownerId' }))).toEqual(['x-owner 指向不存在的属性 ownerId']);
    const message = 'x-owner userId 必须是 readOnly 的 integer 属性（由服务端填写为当前用户编号）';
    expect(problemsOf(schema({}, { type: ['integer', 'null'], title: '所属用户' }))).toEqual([message]);
    expect(problemsOf(schema({}, { type: 'string', title: '所属用户', readOnly: true }))).toEqual([message]);
  });

  it('refuses import and 清空, which do not ask whose rows they touch', () => {
    const perms = { list: 'demo:note:list', import: 'demo:note:import', clean: 'demo:note:clean' };
    expect(problemsOf(schema({ 'x-permissions': perms }))).toEqual([
      'x-permissions.import 有 x-owner 的实体不支持导入和清空',
      'x-permissions.clean 有 x-owner 的实体不支持导入和清空',
    ]);
  });
});
