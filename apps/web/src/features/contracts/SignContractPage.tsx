import { Card, Tabs, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ContractsTab } from './ContractsTab';
import { PriceContractsTab } from './PriceContractsTab';

const TABS = ['contracts', 'prices'] as const;
type Tab = (typeof TABS)[number];

/**
 * /operate/signContract (issue 28): the contracts of airtime orders and price contracts (drawn
 * up as PDF with their SHA-256, signed inside the product or through the e-signature provider,
 * with the provider's sync), and the advertisers' price contracts (negotiated discount and slot
 * prices). The tab is in the URL (`?tab=`); `?keyword=` opens the contracts list filtered (the
 * order detail links here with its number).
 */
export default function SignContractPage() {
  const { t } = useTranslation('contracts');
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const active: Tab = (TABS as readonly string[]).includes(requested ?? '') ? (requested as Tab) : 'contracts';
  const items: { key: Tab; label: string; children: ReactNode }[] = [
    { key: 'contracts', label: t('tab.contracts'), children: <ContractsTab /> },
    { key: 'prices', label: t('tab.prices'), children: <PriceContractsTab /> },
  ];
  return (
    <div className="mq-view" data-testid="contracts-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('title')}
      </Typography.Title>
      <Card size="small">
        <Tabs
          activeKey={active}
          onChange={(key) => setParams({ tab: key }, { replace: true })}
          destroyOnHidden
          items={items.map((i) => ({ ...i, label: <span data-testid={`contracts-tab-${i.key}`}>{i.label}</span> }))}
        />
      </Card>
    </div>
  );
}
