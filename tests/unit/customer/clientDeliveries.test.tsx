import { useInvalidate } from '@refinedev/core';
import { fireEvent, screen } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { describe, expect, it } from 'vitest';
import { Deliveries } from '@/modules/customer/clientData/Deliveries';
import { renderWithRefine, useEngineServer } from '../engine/helpers';

/**
 * 客户资料's expanded 邮寄记录 (clientData/Deliveries.tsx): the customer's deliveries, read again whenever the
 * cus_client list is invalidated — what ClientDataPage does after 邮寄 or 修改资料, and the list's refresh — so an open
 * record shows a new 邮寄 without being closed and opened again.
 */
const stored: Array<Record<string, unknown>> = [];
const asked: string[] = [];

const delivery = (deliveryId: number, trackingNo: string) => ({
  deliveryId,
  item: '志愿报告',
  carrier: '顺丰速运',
  trackingNo,
  address: '山东省济南市历下区经十路 1 号',
  createByName: '王经理',
  createTime: 1767225600000,
});

useEngineServer(() => {
  stored.length = 0;
  asked.length = 0;
  stored.push(delivery(1, 'SF1000000001'));
  return [
    mock.get('*/dev-api/customer/client/deliveries', ({ request }) => {
      asked.push(new URL(request.url).searchParams.get('studentId') ?? '');
      return HttpResponse.json({ code: 200, msg: '操作成功', data: [...stored].reverse() });
    }),
  ];
});

/** What ClientDataPage does after a save. */
function SaveDone() {
  const invalidate = useInvalidate();
  return (
    <button type="button" onClick={() => invalidate({ resource: 'cus_client', invalidates: ['list'] })}>
      已保存
    </button>
  );
}

describe('客户资料 邮寄记录', () => {
  it('reads the customer’s deliveries, and again after the cus_client list is invalidated', async () => {
    renderWithRefine(
      <>
        <Deliveries record={{ studentId: 7 }} />
        <SaveDone />
      </>,
    );
    await screen.findByText('SF1000000001');
    expect(asked).toEqual(['7']);
    stored.push(delivery(2, 'SF1000000002'));
    fireEvent.click(screen.getByRole('button', { name: '已保存' }));
    await screen.findByText('SF1000000002');
    expect(screen.getByText('SF1000000001')).toBeTruthy();
    expect(asked).toEqual(['7', '7']);
  });

  it('says 暂无邮寄记录 when there is none', async () => {
    stored.length = 0;
    renderWithRefine(<Deliveries record={{ studentId: 8 }} />);
    await screen.findByText('暂无邮寄记录');
  });
});
