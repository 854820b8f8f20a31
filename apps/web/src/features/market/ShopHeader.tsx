import { ClockCircleOutlined, CloudServerOutlined, WalletOutlined } from '@ant-design/icons';
import { EXPIRING_DEVICE_DAYS, formatFen, formatSize, Perm } from '@marquee/protocol';
import { Card, Col, Progress, Row, Skeleton, Statistic, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { NotForMonitor } from '../../components/MonitorGuard';
import { useCan } from '../../session/useCan';
import { detailPath, usedPercent } from './marketLogic';

/**
 * The shop's header strip: the wallet's available balance (Recharge at the finance centre), the
 * material storage quota (used of quota, packs active) and the devices whose licence expires
 * within 15 days (to the device points' page with that filter).
 */
export function ShopHeader() {
  const { t, i18n } = useTranslation('market');
  const { token } = theme.useToken();
  const can = useCan();
  const finance = can(Perm.myFinance);
  const summary = useCallQuery('financeSummary', {}, { enabled: finance, silent: true, staleTime: 30_000 });
  const storage = useCallQuery('marketStorage', {}, { staleTime: 30_000 });
  const expiring = useCallQuery(
    'marketDeviceOptions',
    { expiringWithinDays: EXPIRING_DEVICE_DAYS, page: 1, size: 10 },
    { staleTime: 30_000 },
  );
  const wallet = summary.data?.wallet;
  const s = storage.data;
  const percent = s ? usedPercent(s.usedBytes, s.quotaBytes) : 0;
  const expiringCount = expiring.data?.total ?? 0;

  return (
    <Row gutter={[12, 12]} className="mq-market-strip" data-testid="market-strip">
      {finance ? (
        <Col xs={24} md={8}>
          <Card size="small" className="mq-market-strip-card">
            {summary.isPending ? (
              <Skeleton active paragraph={{ rows: 1 }} />
            ) : (
              <Statistic
                title={t('strip.available')}
                prefix={<WalletOutlined />}
                value={wallet ? formatFen(wallet.available, i18n.language) : '-'}
                styles={{ content: { color: token.colorPrimaryText } }}
                valueRender={(node) => <span data-testid="market-available">{node}</span>}
              />
            )}
            <NotForMonitor>
              <Link to="/my/finance" data-testid="market-recharge">
                {t('strip.recharge')}
              </Link>
            </NotForMonitor>
          </Card>
        </Col>
      ) : null}
      <Col xs={24} md={finance ? 8 : 12}>
        <Card size="small" className="mq-market-strip-card" data-testid="market-storage-quota">
          <div className="mq-market-strip-title">
            <CloudServerOutlined /> {t('strip.storage')}
          </div>
          {s ? (
            <>
              <Progress
                percent={percent}
                status={percent >= 90 ? 'exception' : 'normal'}
                aria-label={t('strip.storage')}
              />
              <Typography.Text type="secondary" data-testid="market-storage-text">
                {t('strip.storageUsed', {
                  used: formatSize(s.usedBytes),
                  quota: formatSize(s.quotaBytes),
                  count: s.activePacks,
                })}
              </Typography.Text>
            </>
          ) : (
            <Skeleton active={storage.isPending} paragraph={{ rows: 1 }} title={false} />
          )}
        </Card>
      </Col>
      <Col xs={24} md={finance ? 8 : 12}>
        <Card size="small" className="mq-market-strip-card">
          <Statistic
            title={t('strip.expiring', { days: EXPIRING_DEVICE_DAYS })}
            prefix={<ClockCircleOutlined />}
            value={expiring.isPending ? '-' : expiringCount}
            styles={expiringCount > 0 ? { content: { color: token.colorWarningText } } : undefined}
            valueRender={(node) => <span data-testid="market-expiring-count">{node}</span>}
          />
          <Link to={detailPath({ kind: 'devicePoints' }, { expiring: '1' })} data-testid="market-expiring-link">
            {t('strip.renewExpiring')}
          </Link>
        </Card>
      </Col>
    </Row>
  );
}
