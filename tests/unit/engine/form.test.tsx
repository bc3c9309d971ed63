import { fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { buildForm } from '@/engine/form/formSchema';
import { validator } from '@/engine/form/validator';
import { EntityFormDialog } from '@/engine/pages/EntityForm';
import { getResourceDef } from '@/resources';
import { renderWithRefine, useEngineServer } from './helpers';

/** The RJSF form of 参数设置: fields from the schema, Chinese validation messages, create / edit bodies, stale version. */
const bodies: Array<{ method: string; body: Record<string, unknown> }> = [];
const def = getResourceDef('sys_config')!;

const server = useEngineServer(() => {
  bodies.length = 0;
  return [
    mock.get('*/dev-api/system/dict/data/type/sys_yes_no', () =>
      HttpResponse.json({
        code: 200,
        msg: '操作成功',
        data: [
          { dictLabel: '是', dictValue: 'Y', listClass: 'primary' },
          { dictLabel: '否', dictValue: 'N', listClass: 'danger' },
        ],
      }),
    ),
    mock.get('*/dev-api/system/config/7', () =>
      HttpResponse.json({
        code: 200,
        msg: '操作成功',
        data: {
          configId: 7,
          configName: '旧名称',
          configKey: 'old.key',
          configValue: 'v',
          configType: 'N',
          remark: null,
          createTime: 1767225600000,
          version: 4,
        },
      }),
    ),
    mock.post('*/dev-api/system/config', async ({ request }) => {
      bodies.push({ method: 'POST', body: (await request.json()) as Record<string, unknown> });
      return HttpResponse.json({ code: 200, msg: '操作成功' });
    }),
  ];
});

describe('form schema', () => {
  it('leaves readOnly fields out when creating and shows them disabled, last, when editing', () => {
    const create = buildForm(def.schema, 'create');
    expect(Object.keys(create.schema.properties ?? {})).toEqual(['configName', 'configKey', 'configValue', 'configType', 'remark']);
    expect(create.schema.required).toEqual(['configName', 'configKey', 'configValue']);
    expect(create.uiSchema.configType).toMatchObject({ 'ui:widget': 'radio', 'ui:options': { dict: 'sys_yes_no', span: 12 } });
    expect(create.uiSchema.configValue).toMatchObject({ 'ui:widget': 'textarea', 'ui:options': { span: 24 } });
    const edit = buildForm(def.schema, 'edit');
    const readOnly = Object.entries(def.schema.properties)
      .filter(([, p]) => p.readOnly)
      .map(([n]) => n);
    expect(readOnly).toEqual(expect.arrayContaining(['configId', 'createTime']));
    expect(edit.fields).toEqual(['configName', 'configKey', 'configValue', 'configType', 'remark', ...readOnly]);
    expect(edit.uiSchema.createTime).toMatchObject({ 'ui:widget': 'readonlyText', 'ui:disabled': true, 'ui:options': { render: 'datetime' } });
    expect(JSON.stringify(edit.schema)).not.toContain('x-');
  });

  it('validates in Chinese (ajv-i18n zh; required names the field)', () => {
    const { schema } = buildForm(def.schema, 'create');
    const result = validator.validateFormData({ configKey: 'k'.repeat(101), configValue: 'v', configType: 'X' }, schema);
    const messages = result.errors.map((e) => e.message);
    expect(messages).toContain('参数名称不能为空');
    expect(messages).toContain('不应多于 100 个字符');
    expect(messages).toContain('应当是预设定的枚举值之一');
  });
});

describe('新增 / 修改 dialog', () => {
  it('shows the Chinese messages under the fields and sends nothing while invalid', async () => {
    renderWithRefine(<EntityFormDialog resource={def} open onClose={() => {}} />);
    expect(screen.getByText('新增参数设置')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await screen.findByText('参数名称不能为空');
    expect(screen.getByText('参数键名不能为空')).toBeTruthy();
    expect(screen.getByText('参数键值不能为空')).toBeTruthy();
    expect(bodies).toEqual([]);
  });

  it('creates with the entered values and the dictionary default', async () => {
    const onClose = vi.fn();
    renderWithRefine(<EntityFormDialog resource={def} open onClose={onClose} />);
    fireEvent.change(screen.getByPlaceholderText('请输入参数名称'), { target: { value: '测试参数' } });
    fireEvent.change(screen.getByPlaceholderText('请输入参数键名'), { target: { value: 'test.key' } });
    fireEvent.change(screen.getByPlaceholderText('请输入参数键值'), { target: { value: '1' } });
    // Radio options come from the sys_yes_no dictionary.
    await screen.findByLabelText('是');
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(bodies).toEqual([{ method: 'POST', body: { configName: '测试参数', configKey: 'test.key', configValue: '1', configType: 'N' } }]);
  });

  it('edits with the record version; a stale version keeps the dialog open with the message', async () => {
    const puts: Array<Record<string, unknown>> = [];
    server.use(
      mock.put('*/dev-api/system/config', async ({ request }) => {
        puts.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json({ code: 500, msg: '数据已被他人修改，请刷新后重试' });
      }),
    );
    const onClose = vi.fn();
    renderWithRefine(<EntityFormDialog resource={def} id={7} open onClose={onClose} />);
    const name = (await screen.findByDisplayValue('旧名称')) as HTMLInputElement;
    expect(screen.getByText('修改参数设置')).toBeTruthy();
    // readOnly fields: disabled, formatted.
    expect((screen.getByDisplayValue('7') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByDisplayValue(/^2026-01-01 \d{2}:00:00$/) as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(name, { target: { value: '新名称' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(puts.length).toBe(1));
    // remark was empty: sent as null so an emptied field is stored empty.
    expect(puts[0]).toEqual({ configId: 7, configName: '新名称', configKey: 'old.key', configValue: 'v', configType: 'N', remark: null, version: 4 });
    await screen.findByText('数据已被他人修改，请刷新后重试', { selector: '.ant-alert-message' });
    expect(onClose).not.toHaveBeenCalled();
  });
});
