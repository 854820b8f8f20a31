import { AD_TARGET_KINDS, type AdInfo, formatTime } from '@marquee/protocol';
import { Alert, Descriptions, Drawer, Skeleton, Tag, Timeline } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { periodText, StatusTag } from './adLook';

/** The detail of one ad (ad.info): its facts, content, targets, time periods and review history. */
export function AdDetailDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation(['ads']);
  const info = useCallQuery('adInfo', { id: id ?? '' }, { enabled: id !== null });
  const ad = info.data;
  return (
    <Drawer open={id !== null} onClose={onClose} title={t('ad.detailTitle')} size={560} destroyOnHidden>
      {info.isError ? <Alert type="error" showIcon message={t('ad.loadFailed')} /> : null}
      {!ad ? info.isError ? null : <Skeleton active /> : <AdDetail ad={ad} />}
    </Drawer>
  );
}

function AdDetail({ ad }: { ad: AdInfo }) {
  const { t } = useTranslation(['ads', 'material']);
  const targets = AD_TARGET_KINDS.filter((k) => ad.targets[k].length > 0);
  return (
    <div data-testid="ad-detail">
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('ad.field.number')}>{ad.number}</Descriptions.Item>
        <Descriptions.Item label={t('ad.field.name')}>{ad.name}</Descriptions.Item>
        <Descriptions.Item label={t('ad.field.type')}>{t(`type.${ad.type}`)}</Descriptions.Item>
        <Descriptions.Item label={t('ad.field.status')}>
          <StatusTag status={ad.status} t={t} />
          <Tag>{t(`reviewState.${ad.reviewState}`)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('ad.field.plan')}>{ad.planName}</Descriptions.Item>
        <Descriptions.Item label={t('ad.field.period')}>{periodText(ad)}</Descriptions.Item>
        <Descriptions.Item label={t('ad.field.periods')}>
          {ad.periods.length
            ? ad.periods.map((p) => <Tag key={`${p.start}-${p.end}`}>{`${p.start}–${p.end}`}</Tag>)
            : t('ad.allDay')}
        </Descriptions.Item>
        <Descriptions.Item label={t('ad.field.strategy')}>
          {`${t(`strategy.${ad.strategy}`)} · ${ad.playsMin}–${ad.playsMax}`}
        </Descriptions.Item>
        <Descriptions.Item label={t('ad.field.content')}>
          <div data-testid="ad-detail-content">
            {ad.layoutName !== null
              ? t('ad.layout', { name: ad.layoutName })
              : ad.materials.map((m, i) => (
                  <div
                    key={m.id}
                  >{`${i + 1}. ${m.name} (${t(`type.${m.type}`, { ns: 'material', defaultValue: m.type })})`}</div>
                ))}
          </div>
        </Descriptions.Item>
        <Descriptions.Item label={t('ad.field.targets')}>
          <div data-testid="ad-detail-targets">
            {targets.length
              ? targets.map((k) => {
                  const names = ad.targetNames.filter((n) => n.kind === k);
                  const unnamed = ad.targets[k].length - names.length;
                  return (
                    <div key={k} data-testid={`ad-detail-target-${k}`}>
                      {`${t(`ad.target.${k}`)}: `}
                      {names.map((n) => (
                        <Tag key={n.id}>{n.name}</Tag>
                      ))}
                      {unnamed > 0 ? <Tag>{t('ad.targetsGone', { count: unnamed })}</Tag> : null}
                    </div>
                  );
                })
              : t('none')}
          </div>
        </Descriptions.Item>
        <Descriptions.Item label={t('ad.field.slot')}>
          <span data-testid="ad-detail-slot">
            {ad.slot ? ad.slot.name : (ad.slotId ?? '-')}
            {ad.source === 'order' && ad.slot?.orderId ? (
              <>
                {' · '}
                <Link
                  to={`/operate/orderDetail?id=${encodeURIComponent(ad.slot.orderId)}`}
                  data-testid="ad-detail-order"
                >
                  {t('ad.orderLink', { no: ad.slot.orderNo ?? ad.slot.orderId })}
                </Link>
              </>
            ) : null}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('ad.field.link')}>{ad.link || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('ad.field.monitorUrl')}>{ad.monitorUrl || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('field.owner')}>{ad.ownerName}</Descriptions.Item>
        <Descriptions.Item label={t('field.createdAt')}>{formatTime(ad.createdAt)}</Descriptions.Item>
      </Descriptions>
      <h4 style={{ marginBlock: 16 }}>{t('ad.field.reviews')}</h4>
      {ad.reviews.length === 0 ? (
        <span>{t('ad.noReviews')}</span>
      ) : (
        <Timeline
          data-testid="ad-detail-reviews"
          items={ad.reviews.map((r) => ({
            color: r.decision === 'pass' ? 'green' : 'red',
            content: (
              <div>
                <div>
                  {t('ad.review', {
                    round: r.round,
                    stage: t(`stage.${r.stage}`),
                    decision: t(`decision.${r.decision}`),
                    name: r.auditorName,
                  })}
                </div>
                {r.reason ? <div>{`${t('ad.field.auditReason')}: ${r.reason}`}</div> : null}
                <div className="mq-muted">{formatTime(r.decidedAt)}</div>
              </div>
            ),
          }))}
        />
      )}
    </div>
  );
}
