import type { EntitySchema } from '@common/engine/types';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { describe, expect, it } from 'vitest';
import { repeatGuard } from '@/api/repeatGuard';
import { EntityList } from '@/engine/pages/EntityList';
import { buildResourceDef } from '@/engine/resource';
import { renderWithRefine, signedIn, useEngineServer } from './helpers';

/**
 * Workflow actions declared in the schema (x-rowActions / x-toolbar kind "call"): shown by the row's status (`when`)
 * and the permission, a confirm dialog with the row's values and the action's label on OK, a required comment, the
 * body sent (templates from the row, literals, the comment, {ids} of the selection); success shows the server's msg
 * and reads the list again, a refusal shows the server's msg in the dialog, which stays open, and changes nothing.
 */
const calls: Array<{ path: string; body: unknown }> = [];
let listCalls = 0;
let refuse: string | null = null;

const APPLY: EntitySchema = {
  $id: 'test_apply',
  title: '提现申请',
  type: 'object',
  'x-primaryKey': 'applyId',
  'x-endpoint': { style: 'app', base: '/appv2/api/TestApply', actions: { list: 'list' }, module: true },
  'x-permissions': { list: 'test:apply:list' },
  'x-version': false,
  'x-rowActionsInline': true,
  'x-rowActions': [
    {
      key: 'pass',
      label: '通过',
      kind: 'call',
      method: 'POST',
      url: '/appv2/api/TestApply/audit',
      body: { applyId: '{applyId}', status: '1', note: '{name}的申请' },
      when: { status: ['0'] },
      confirm: '确认通过{name}的提现申请吗？',
      permission: 'test:apply:audit',
    },
    {
      key: 'reject',
      label: '驳回',
      kind: 'call',
      url: '/appv2/api/TestApply/audit',
      body: { applyId: '{applyId}', status: '2' },
      when: { status: ['0', '1'] },
      comment: { field: 'remark', title: '驳回原因', required: true, maxLength: 50 },
      danger: true,
      permission: 'test:apply:audit',
    },
  ],
  'x-toolbar': [
    {
      key: 'pay',
      label: '批量打款',
      kind: 'call',
      url: '/appv2/api/TestApply/pay',
      body: { ids: '{ids}', list: 'ids={ids}' },
      selection: 'multiple',
      permission: 'test:apply:pay',
    },
  ],
  properties: {
    applyId: { type: 'integer', title: '申请编号', readOnly: true, 'x-list': { order: 1 } },
    name: { type: 'string', title: '申请人', 'x-list': { order: 2 } },
    status: { type: 'string', title: '状态', enum: ['0', '1', '2'], 'x-enumLabels': { '0': '待审核', '1': '已通过', '2': '已驳回' }, 'x-list': { order: 3 } },
  },
};
const def = buildResourceDef(APPLY);
const rows = [
  { applyId: 1, name: '张三', status: '0' },
  { applyId: 2, name: '李四', status: '1' },
  { applyId: 3, name: '王五', status: '2' },
];

useEngineServer(() => {
  calls.length = 0;
  listCalls = 0;
  refuse = null;
  return [
    mock.post('*/appv2/api/TestApply/list', () => {
      listCalls++;
      return HttpResponse.json({ code: 200, msg: '查询成功', rows, total: rows.length });
    }),
    mock.post('*/appv2/api/TestApply/:action', async ({ request, params }) => {
      calls.push({ path: String(params.action), body: await request.json() });
      return HttpResponse.json(refuse ? { code: 500, msg: refuse } : { code: 200, msg: params.action === 'pay' ? '已打款 2 笔' : '审核完成' });
    }),
  ];
});

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
const dialog = () => screen.getByRole('dialog');

describe('call actions', () => {
  it('show by the row status and the permission; the enum label is the status cell', async () => {
    signedIn(['test:apply:list', 'test:apply:audit']);
    renderWithRefine(<EntityList resource={def} />, [APPLY]);
    await screen.findByText('张三');
    expect(within(rowOf('张三')).getByText('待审核')).toBeTruthy();
    expect(within(rowOf('张三')).getByRole('button', { name: '通过' })).toBeTruthy();
    expect(within(rowOf('张三')).getByRole('button', { name: '驳回' })).toBeTruthy();
    expect(within(rowOf('李四')).queryByRole('button', { name: '通过' })).toBeNull();
    expect(within(rowOf('李四')).getByRole('button', { name: '驳回' })).toBeTruthy();
    expect(within(rowOf('王五')).queryByRole('button')).toBeNull();
    // Without the permission: no workflow button at all, and no toolbar 批量打款.
    cleanup();
    signedIn(['test:apply:list']);
    renderWithRefine(<EntityList resource={def} />, [APPLY]);
    await screen.findByText('张三');
    expect(within(rowOf('张三')).queryByRole('button', { name: '通过' })).toBeNull();
    expect(screen.queryByRole('button', { name: '批量打款' })).toBeNull();
  });

  it('confirm: the text names the row, OK is the label, the body is filled from the row; success toasts the msg and reads the list again', async () => {
    signedIn(['test:apply:list', 'test:apply:audit']);
    renderWithRefine(<EntityList resource={def} />, [APPLY]);
    await screen.findByText('张三');
    const before = listCalls;
    fireEvent.click(within(rowOf('张三')).getByRole('button', { name: '通过' }));
    expect(await within(dialog()).findByText('确认通过张三的提现申请吗？')).toBeTruthy();
    // Cancelling sends nothing.
    fireEvent.click(within(dialog()).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toEqual([]);
    fireEvent.click(within(rowOf('张三')).getByRole('button', { name: '通过' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /通\s*过/ }));
    await waitFor(() => expect(calls).toEqual([{ path: 'audit', body: { applyId: 1, status: '1', note: '张三的申请' } }]));
    expect(await screen.findByText('审核完成')).toBeTruthy();
    await waitFor(() => expect(listCalls).toBeGreaterThan(before));
  });

  it('comment: required before anything is sent, sent as its field; a refusal shows the server msg in the dialog, which stays open, and changes nothing', async () => {
    signedIn(['test:apply:list', 'test:apply:audit']);
    renderWithRefine(<EntityList resource={def} />, [APPLY]);
    await screen.findByText('李四');
    fireEvent.click(within(rowOf('李四')).getByRole('button', { name: '驳回' }));
    const box = await screen.findByRole('dialog');
    expect(within(box).getByText('驳回原因')).toBeTruthy();
    fireEvent.click(within(box).getByRole('button', { name: /驳\s*回/ }));
    expect(await within(box).findByText('请输入驳回原因')).toBeTruthy();
    expect(calls).toEqual([]);

    refuse = '该申请已处理，不能驳回';
    const before = listCalls;
    fireEvent.change(within(box).getByPlaceholderText('请输入驳回原因'), { target: { value: ' 资料不全 ' } });
    fireEvent.click(within(box).getByRole('button', { name: /驳\s*回/ }));
    await waitFor(() => expect(calls).toEqual([{ path: 'audit', body: { applyId: 2, status: '2', remark: '资料不全' } }]));
    expect(await within(box).findByText('该申请已处理，不能驳回')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBe(box);
    expect(listCalls).toBe(before);

    refuse = null;
    repeatGuard.reset(); // the same write again at once would be refused as a repeat (§8)
    fireEvent.click(within(box).getByRole('button', { name: /驳\s*回/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toHaveLength(2);
    await waitFor(() => expect(listCalls).toBeGreaterThan(before));
  });

  it('a toolbar call with selection gets the selected keys as {ids}', async () => {
    signedIn(['test:apply:list', 'test:apply:pay']);
    renderWithRefine(<EntityList resource={def} />, [APPLY]);
    await screen.findByText('张三');
    const pay = screen.getByRole('button', { name: '批量打款' });
    expect((pay as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(rowOf('张三')).getByRole('checkbox'));
    fireEvent.click(within(rowOf('王五')).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: '批量打款' }));
    await waitFor(() => expect(calls).toEqual([{ path: 'pay', body: { ids: [1, 3], list: 'ids=1,3' } }]));
    expect(await screen.findByText('已打款 2 笔')).toBeTruthy();
  });
});
