import type { EntitySchema } from '@common/engine/types';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { describe, expect, it } from 'vitest';
import { EntityList } from '@/engine/pages/EntityList';
import { figureValue } from '@/engine/pages/HeaderFigures';
import { buildResourceDef } from '@/engine/resource';
import { renderWithRefine, signedIn, useEngineServer } from './helpers';

/**
 * x-header: Statistic cards above the list. With `url`: read from the module route with the search values it names
 * (params), again by 刷新 and after a write (the figures' query sits under the list's key), not on a page change.
 * With `from: "list"`: read from the list's own answer for the current page, no call of their own. Money is fen shown
 * as ¥ yuan with 2 decimals; a `tip` is grey text under the value.
 */
const walletCalls: URLSearchParams[] = [];
const deletes: string[] = [];
let balance = 1234567;

const WALLET: EntitySchema = {
  $id: 'test_wallet_log',
  title: '收款钱包',
  type: 'object',
  'x-primaryKey': 'logId',
  'x-endpoint': { style: 'rest', base: '/dev-api/test/walletLog', module: true },
  'x-permissions': { list: 'test:wallet:list', remove: 'test:wallet:remove' },
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

/** The same rows, the figures carried by the list answer itself (账户余额 beside rows / total). */
const LEDGER: EntitySchema = {
  ...WALLET,
  $id: 'test_wallet_ledger',
  title: '账户流水',
  'x-endpoint': { style: 'rest', base: '/dev-api/test/ledger', module: true },
  'x-permissions': { list: 'test:wallet:list' },
  'x-header': {
    from: 'list',
    figures: [
      { key: 'wallet.balanceFen', title: '账户余额', render: 'money', tip: '用于发卡、账户续费' },
      { key: 'total', title: '流水条数', render: 'count' },
    ],
  },
};

/** 25 log rows, a page of them as `pageNum` / `pageSize` ask. */
const all = Array.from({ length: 25 }, (_, i) => ({ logId: i + 1, storeId: 2, remark: `充值${i + 1}` }));
const page = (request: Request) => {
  const q = new URL(request.url).searchParams;
  const size = Number(q.get('pageSize'));
  const start = (Number(q.get('pageNum')) - 1) * size;
  return { rows: all.slice(start, start + size), total: all.length };
};

const server = useEngineServer(() => {
  walletCalls.length = 0;
  deletes.length = 0;
  balance = 1234567;
  return [
    mock.get('*/dev-api/test/walletLog/list', ({ request }) => HttpResponse.json({ code: 200, msg: '查询成功', ...page(request) })),
    mock.delete('*/dev-api/test/walletLog/:ids', ({ params }) => {
      deletes.push(String(params.ids));
      return HttpResponse.json({ code: 200, msg: '删除成功' });
    }),
    mock.get('*/appv2/api/TestWallet/wallet', ({ request }) => {
      const params = new URL(request.url).searchParams;
      walletCalls.push(params);
      return HttpResponse.json({ code: 200, msg: '操作成功', data: { balance, orders: 1520, storeName: params.get('storeId') ? '济南门店' : '全部门店' } });
    }),
    mock.get('*/dev-api/test/ledger/list', ({ request }) =>
      HttpResponse.json({ code: 200, msg: '查询成功', ...page(request), wallet: { balanceFen: balance } }),
    ),
  ];
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
    signedIn(['test:wallet:list']);
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

  it('a page change reads the list only; a delete reads the figures again', async () => {
    signedIn(['test:wallet:list', 'test:wallet:remove']);
    renderWithRefine(<EntityList resource={def} />, [WALLET]);
    const header = await waitFor(() => document.querySelector('.engine-header') as HTMLElement);
    await waitFor(() => expect(header.textContent).toContain('¥12,345.67'));
    expect(walletCalls).toHaveLength(1);

    // Page 2, then 刷新 with a new balance: once that balance shows, the one read since is 刷新's own.
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('充值21');
    balance = 700;
    fireEvent.click(screen.getByRole('button', { name: /刷新/ }));
    await waitFor(() => expect(header.textContent).toContain('¥7.00'));
    expect(walletCalls).toHaveLength(2);

    // A delete is a write of this resource: the figures are read again.
    balance = 300;
    fireEvent.click(within(screen.getByText('充值21').closest('tr') as HTMLElement).getByRole('button', { name: /删\s*除/ }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(deletes).toEqual(['21']));
    await waitFor(() => expect(header.textContent).toContain('¥3.00'));
  });

  it('from "list": the figures come from the list answer of the current page, with their tips, and nothing else is called', async () => {
    const called: string[] = [];
    const seen = ({ request }: { request: Request }) => {
      called.push(new URL(request.url).pathname);
    };
    server.events.on('request:start', seen);
    try {
      signedIn(['test:wallet:list']);
      renderWithRefine(<EntityList resource={buildResourceDef(LEDGER)} />, [LEDGER]);
      const header = await waitFor(() => document.querySelector('.engine-header') as HTMLElement);
      await waitFor(() => expect(header.textContent).toContain('¥12,345.67'));
      expect(header.textContent).toContain('流水条数25');
      expect(within(header).getByText('用于发卡、账户续费').className).toContain('engine-header-tip');

      // The next page's answer carries the balance as it is then.
      balance = 99;
      fireEvent.click(screen.getByTitle('2'));
      await screen.findByText('充值21');
      await waitFor(() => expect(header.textContent).toContain('¥0.99'));
      expect(called).toEqual(['/dev-api/test/ledger/list', '/dev-api/test/ledger/list']);
    } finally {
      server.events.removeListener('request:start', seen);
    }
  });
});
