import { Alert, Space, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { type RenewalInfo, renewalInfo, yuan } from '@/api/pay';
import type { EnginePageProps } from '@/engine/resource';
import { loadPlatform } from '@/session/loadSession';
import { closeDialog } from '../storeForms/dialogRequests';
import { FinanceList } from '../storeForms/FinanceList';
import { RenewDialog } from './RenewDialog';

/**
 * 账户续费 (finance/renewal/index, schemas/finance/fin_renewal_order.json): the licence's expiry date and state as the
 * header figures of the generic list of renewal orders; around it the expired warning, the prices, and the 续费 dialog
 * the toolbar button 立即续费 of overrides.tsx opens (also used by /beOverdue).
 */
export default function RenewalListPage({ resource }: EnginePageProps) {
  const [info, setInfo] = useState<RenewalInfo | null>(null);
  const refresh = useCallback(() => {
    renewalInfo()
      .then(setInfo)
      .catch(() => undefined);
  }, []);
  useEffect(refresh, []);
  return (
    <FinanceList
      resource={resource}
      above={
        <>
          {info?.expired && <Alert type="error" showIcon style={{ margin: '16px 16px 0' }} message={`平台授权已于 ${info.expiredate} 到期，请尽快续费`} />}
          {info && info.plans.length > 0 && (
            <Space wrap style={{ margin: '16px 16px 0' }}>
              续费价格：
              {info.plans.map((p) => (
                <Tag key={p.planId}>
                  {p.name}：¥ {yuan(p.priceFen)}
                </Tag>
              ))}
            </Space>
          )}
        </>
      }
      dialogs={(request) => (
        <RenewDialog
          open={request?.kind === 'renew'}
          onClose={closeDialog}
          onRenewed={() => {
            refresh();
            request?.ctx.refresh();
            loadPlatform().catch(() => undefined);
          }}
        />
      )}
    />
  );
}
