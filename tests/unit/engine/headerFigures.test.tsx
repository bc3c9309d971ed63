import type { EntitySchema } from '@common/engine/types';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { repeatGuard } from '@/api/repeatGuard';
import { setFeedback } from '@/api/request';
import { clearDictCache } from '@/components/DictTag';
import { EntityList } from '@/engine/pages/EntityList';
import { figureValue } from '@/engine/pages/HeaderFigures';
import { buildResourceDef } from '@/engine/resource';
import { sessionStore } from '@/session/sessionStore';
import { useRealKeys } from '../api/keys';
import { browserShims, renderWithRefine } from './helpers';

/**
 * x-header: Statistic cards above the list, read from the module route with the search values it names (params), read
 * again with every list answer (search, 刷新); money is fen shown as ¥ yuan with 2 decimals.
 */
const server = setupServer();
const keys = useRealKeys();
const walletCalls: URLSearchParams[] = [];
let balance = 1234567;

const WALLET: EntitySchema = {
  $id: 'test_wallet_log',
  title: '收款钱包',
  type: 'object',
  'x-primaryKey': 'logId',
  'x-endpoint': { style: 'rest', base: '/dev-api/test/walletLog', module: true },
  'x-permissions': { list: 'test:wallet:list' },
  'x-version': false,
  'x-header': {
    url: '/appv2/api/TestWallet/wallet',
    params: ['storeId'],
    figures: [
      { key: 'data.balance', title: '账户余额', render: 'money' },
      { key: 'data.orders', title: '订单数', render: 'count' },
      { key: 'data.orders', title: '{data.storeName}订单', render: 'count' },
    ],
  },
  properties: {
    logId: { type: 'integer', title: '流水号', readOnly: true, 'x-list': { order: 1 } },
    storeId: { type: 'integer', title: '门店编号', 'x-list': { order: 2 }, 'x-search': { op: 'eq' } },
    remark: { type: 'string', title: '备注', 'x-list': { order: 3 }, 'x-search': { op: 'like' } },
  },
};
const def = buildResourceDef(WALLET);

beforeAll(() => {
  browserShims();
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => {
  server.close();
  keys.cleanup();
});
beforeEach(() => {
  repeatGuard.reset();
  clearDictCache();
  localStorage.clear();
  walletCalls.length = 0;
  balance = 1234567;
  setFeedback(null);
  server.use(
    mock.get('*/dev-api/test/walletLog/list', () =>
      HttpResponse.json({ code: 200, msg: '查询成功', rows: [{ logId: 1, storeId: 2, remark: '充值' }], total: 1 }),
    ),
    mock.get('*/appv2/api/TestWallet/wallet', ({ request }) => {
      const params = new URL(request.url).searchParams;
      walletCalls.push(params);
      return HttpResponse.json({ code: 200, msg: '操作成功', data: { balance, orders: 1520, storeName: params.get('storeId') ? '济南门店' : '全部门店' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  sessionStore.reset();
  vi.clearAllMocks();
});

describe('x-header figures', () => {
  it('money is fen as ¥ yuan with 2 decimals, count a whole number, text as it is; a missing value is -', () => {
    const answer = { data: { balance: 1234567, orders: '1520', name: '总部' } };
    expect(figureValue({ key: 'data.balance', title: '余额', render: 'money' }, answer)).toEqual({ value: 12345.67, precision: 2, prefix: '¥' });
    expect(figureValue({ key: 'data.orders', title: '单数', render: 'count' }, answer)).toEqual({ value: 1520, precision: 0 });
    expect(figureValue({ key: 'data.name', title: '名称' }, answer)).toEqual({ value: '总部' });
    expect(figureValue({ key: 'data.none', title: '无', render: 'money' }, answer)).toEqual({ value: '-' });
  });

  it('shows the figures above the list, sends the named search values, and reads them again with the list', async () => {
    sessionStore.set({ roles: ['operator'], permissions: ['test:wallet:list'], loaded: true });
    renderWithRefine(<EntityList resource={def} />, [WALLET]);
    const header = await waitFor(() => document.querySelector('.engine-header') as HTMLElement);
    expect(await within(header).findByText('账户余额')).toBeTruthy();
    // ¥12,345.67: antd Statistic splits the integer and decimal parts.
    await waitFor(() => expect(header.textContent).toContain('¥12,345.67'));
    expect(header.textContent).toContain('1,520');
    expect(header.textContent).toContain('全部门店订单');
    expect(Object.fromEntries(walletCalls[0])).toEqual({});

    // A search on 门店编号 goes to the header too (params), 备注 does not.
    fireEvent.change(screen.getByPlaceholderText('请输入门店编号'), { target: { value: '2' } });
    fireEvent.change(screen.getByPlaceholderText('请输入备注'), { target: { value: '充' } });
    fireEvent.click(within(document.querySelector('.engine-search') as HTMLElement).getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(header.textContent).toContain('济南门店订单'));
    expect(Object.fromEntries(walletCalls.at(-1) as URLSearchParams)).toEqual({ storeId: '2' });

    // 刷新 reads the list and the figures again.
    balance = 500;
    const before = walletCalls.length;
    fireEvent.click(screen.getByRole('button', { name: /刷新/ }));
    await waitFor(() => expect(walletCalls.length).toBeGreaterThan(before));
    await waitFor(() => expect(header.textContent).toContain('¥5.00'));
  });
});
